import type { Readable } from 'node:stream';
import type { ColumnMap } from '../convert/csvColumns.js';
import { checkReadable, type InputSpec } from '../readers/openInput.js';
import { readRecords } from '../readers/readRecords.js';
import type { ReportBuilder } from '../report/report.js';
import type { Resource } from '../resources/resource.js';
import { validateRecord } from '../validate/validateRecord.js';

export interface ValidateInputsOptions {
  resource: Resource;
  inputs: readonly InputSpec[];
  stdin: Readable;
  map?: ColumnMap;
  now: Date;
  builder: ReportBuilder;
  /** Called after each record, for progress display. */
  onRecord?: () => void;
}

/** Reads every input in order and validates each record into the report; opens all files first, to fail fast. */
export async function validateInputs(options: ValidateInputsOptions): Promise<void> {
  const { resource, builder } = options;
  for (const spec of options.inputs) await checkReadable(spec);
  const context = { now: options.now };
  for (const spec of options.inputs) {
    for await (const record of readRecords(spec, resource, options.stdin, options.map)) {
      const issues = record.value === undefined
        ? record.issues
        : validateRecord(resource, record.value, context, record.issues, { fieldsChecked: record.fieldsChecked === true });
      builder.add(resource.name, { file: record.file, index: record.index, line: record.line }, issues);
      options.onRecord?.();
    }
  }
}
