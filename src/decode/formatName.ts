/** The name of an input format: each has its entry in inputFormats.ts, which the compiler holds to this list. */
export type InputFormat = 'json' | 'ndjson' | 'csv' | 'parquet';
