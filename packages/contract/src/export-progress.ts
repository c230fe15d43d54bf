import { z } from 'zod';

/*
 * Progress of a long export (issue 15 item 4): the console names each export with an id of its
 * own making, sends it with the export request, and asks `/api/export/progress` for the figure
 * while the file is being made (docs/API.md "Export progress").
 */

/** 8-64 letters, digits and dashes: a UUID or any random string the console makes. */
export const ExportProgressId = z.string().regex(/^[A-Za-z0-9-]{8,64}$/, { error: 'rule.progressId' });

/** The optional field every export request carries. */
export const ExportProgressField = ExportProgressId.optional();

export const ExportProgressRequest = z.object({ progressId: ExportProgressId });
export type ExportProgressRequest = z.infer<typeof ExportProgressRequest>;

/**
 * `reading`: the data is being read (no figure yet); `writing`: `done` of `total` rows are in the
 * file; `done` / `failed`: over. `unknown`: no export of the caller has this id (not started yet,
 * someone else's, or older than a day).
 */
export const ExportPhases = ['reading', 'writing', 'done', 'failed', 'unknown'] as const;
export type ExportPhase = (typeof ExportPhases)[number];

export interface ExportProgressView {
  phase: ExportPhase;
  done: number;
  total: number;
}
