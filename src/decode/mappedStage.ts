import { REASON_FIELD } from '../core/rejectsField.js';
import { restoreFormula } from '../convert/formulaCells.js';
import { columnCountIssue } from '../convert/rowIssues.js';
import { checkRecord, type CheckedRecord } from '../check/checkRecord.js';
import { validatorOf } from '../fast/fastValidator.js';
import { applyRow } from '../mapping/applyRow.js';
import { compileEntry, type CompiledEntry } from '../mapping/compileMapping.js';
import { prefetchBatch } from '../mapping/compileRow.js';
import type { MappingSpec } from '../mapping/mappingSpec.js';
import { endpointSchemas, registry } from '../resources/registry.js';
import type { EndpointName } from '../resources/resource.js';
import type { StagedRows } from './csvRecordStage.js';
import { RelatedRowReader, type RelatedIndexFile } from './relatedRowReader.js';

/**
 * What another thread needs to compile a mapping entry as the reading thread did: the mapping, which entry,
 * for which file, and the headers it reads.
 */
export interface MappedRecipe {
  spec: MappingSpec;
  /** The entry's position among the mapping's entries. */
  entry: number;
  file: string;
  /** The headers of the file and of the files its lists and lookups join, and only those. */
  headers: [string, string[] | undefined][];
  /** An endpoint command's (the flat form's endpoint). */
  endpoint?: EndpointName;
  related: RelatedIndexFile;
}

/** A mapped CSV file's plan: its rows become records through the mapping entry, checked where they are parsed. */
export interface MappedStagePlan {
  mapped: MappedRecipe;
  endpoint: string;
  /** The run's clock, in milliseconds. */
  now: number;
  /** Each record's flow facts and content hash are worked out where it is checked. */
  digest: boolean;
  /** The header's width: a row with another number of cells is reported. */
  width: number;
}

/** The entry a recipe names, compiled again (the reading thread checked the mapping: it compiles the same way). */
export function compileRecipe(recipe: MappedRecipe): CompiledEntry {
  const headers = new Map(recipe.headers);
  return compileEntry(recipe.spec, recipe.entry, recipe.file, {
    header: (file) => headers.get(file),
    // The files the reading thread's globs matched are exactly those whose headers came along.
    listing: recipe.headers.map(([file]) => file),
    schemas: endpointSchemas,
    ...(recipe.endpoint ? { endpoint: recipe.endpoint } : {}),
  });
}

/**
 * Builds a mapped file's rows into records and checks them, on whichever thread parses its pieces:
 * the related rows come from the run's index, opened read-only. A row its entry's `when:` leaves
 * out gives no record; `positions` says which rows did, so the reader counts every row.
 */
export function createMappedStage(plan: MappedStagePlan): (rows: string[][], lines: number[]) => StagedRows {
  const { row } = compileRecipe(plan.mapped);
  // A rejects file collect wrote (it has the reasons column): its cells carry the formula guard to remove.
  const restore = new Map(plan.mapped.headers).get(plan.mapped.file)?.includes(REASON_FIELD) ?? false;
  const related = RelatedRowReader.open(plan.mapped.related);
  const resource = registry.get(plan.endpoint);
  if (!resource) throw new Error(`no endpoint ${plan.endpoint}`);
  const check = { now: new Date(plan.now), fieldsChecked: true, digest: plan.digest, validatorOf };
  return (rows, lines) => {
    const checked: CheckedRecord[] = [];
    const staged: StagedRows = { rows: [], lines: [], checked, positions: [], rowCount: rows.length };
    if (restore) for (let n = 0; n < rows.length; n++) rows[n] = rows[n]!.map(restoreFormula);
    prefetchBatch(row, rows, related);
    for (let n = 0; n < rows.length; n++) {
      const cells = rows[n]!;
      if (!row.keep(cells)) continue;
      const mapped = applyRow(row, cells, related);
      if (cells.length !== plan.width) mapped.issues.push(columnCountIssue(cells.length, plan.width));
      checked.push(checkRecord(resource, mapped.value, mapped.issues, check, mapped.children));
      staged.lines.push(lines[n]!);
      staged.positions!.push(n);
    }
    return staged;
  };
}
