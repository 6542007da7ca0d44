/**
 * What each record and input check catches, by issue code, for reports that describe codes apart
 * from their instances (SARIF rules). The flow rules describe themselves (`collect rules`).
 */
export const recordCheckCodes: Readonly<Record<string, string>> = {
  required: 'a field the service requires is missing',
  'invalid-type': 'a field has the wrong type (text where a number belongs, ...)',
  'invalid-enum': 'a field holds a value outside its list of allowed values',
  'invalid-format': 'a field does not have the format the service expects (date and time, email, ...)',
  'invalid-value': 'a field holds a value the service does not accept',
  'out-of-range': 'a number or a text is outside the range the service accepts',
  'empty-value': 'a field that must not be empty is empty',
  'invalid-number': 'a CSV cell that should hold a number does not',
  'inexact-number': 'a number cannot be represented exactly and would be sent changed',
  'invalid-boolean': 'a CSV cell that should hold true or false does not',
  'invalid-json': 'the input, or a JSON cell, is not valid JSON',
  'invalid-csv': 'the CSV cannot be read (quoting)',
  'invalid-utf8': 'the input is not valid UTF-8 text',
  'too-deep': 'a record nests objects or lists deeper than the service accepts',
  'record-too-large': 'a record is larger than the limit',
  'too-many-columns': 'the CSV header has more columns than any export of the service can fill',
  'csv-column-count': 'a CSV row has more or fewer cells than the header has columns',
  'csv-header-conflict': 'two CSV columns fill the same field',
  'duplicate-header': 'two CSV columns have the same header',
  'empty-header': 'a CSV column has no header',
  'map-column-missing': 'the --map file names a column the file does not have',
  'sparse-array': 'numbered CSV columns skip a position',
  'unknown-field': 'a field or column the service does not know',
  'missing-recommended': 'a field the service recommends is missing',
  'rejected-by-service': 'the service rejected the record',
  'not-sent': 'the record was not sent',
  'delivery-failed': 'the record could not be delivered',
  'key-refused': 'the service refused the API key',
};
