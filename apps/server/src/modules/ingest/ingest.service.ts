import type { UpRecord } from '@coldchain/contract';
import type { Db } from '../../db/client';
import type { KnownDevice } from './device-directory';
import { type IngestJob, type IngestResult, writeIngestBatch } from './write-batch';

interface Pending extends IngestJob {
  resolve: (result: IngestResult) => void;
  reject: (error: unknown) => void;
}

/** Jobs written in one transaction at most; bounds a transaction's size under a flood. */
const MAX_JOBS_PER_BATCH = 2000;

/**
 * The one entry of every reading (MQTT and HTTP). Messages that arrive while a transaction is
 * being written wait and are written together in the next one, so throughput grows with load
 * while a lone message is written at once. A promise resolves only after its transaction has
 * committed: that is when a device may be acknowledged.
 */
export class IngestService {
  private queue: Pending[] = [];
  private writing = false;

  constructor(private readonly db: Db) {}

  ingest(device: KnownDevice, records: UpRecord[]): Promise<IngestResult> {
    return new Promise((resolve, reject) => {
      this.queue.push({ device, records, resolve, reject });
      if (!this.writing) void this.drain();
    });
  }

  private async drain() {
    this.writing = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, MAX_JOBS_PER_BATCH);
        try {
          const results = await this.db.transaction((tx) => writeIngestBatch(tx, batch));
          for (const [i, job] of batch.entries()) job.resolve(results[i]!);
        } catch (error) {
          for (const job of batch) job.reject(error);
        }
      }
    } finally {
      this.writing = false;
    }
  }

  /** Resolves when everything queued so far has been written (graceful shutdown). */
  async idle(): Promise<void> {
    while (this.writing || this.queue.length > 0) await new Promise((r) => setTimeout(r, 5));
  }
}
