/** Publishes a message to a device topic; one per broker the platform is connected to. */
export type DownPublisher = (topic: string, payload: string) => void;
export type AckHandler = (serial: string, payload: Buffer) => void;

/**
 * The seam between the parameter service (inside the app) and the brokers (started beside it
 * by server.ts and tests): brokers attach a publisher for `cc/v1/<serial>/down` and hand over
 * what devices publish on `cc/v1/<serial>/ack`.
 */
export class ParameterLink {
  private readonly publishers = new Set<DownPublisher>();
  private handler: AckHandler | undefined;

  attachPublisher(publisher: DownPublisher): () => void {
    this.publishers.add(publisher);
    return () => this.publishers.delete(publisher);
  }

  /** False when no broker is attached, so the request can fail at once instead of timing out. */
  publishDown(serial: string, message: unknown): boolean {
    if (this.publishers.size === 0) return false;
    const payload = JSON.stringify(message);
    for (const publish of this.publishers) publish(`cc/v1/${serial}/down`, payload);
    return true;
  }

  onAck(handler: AckHandler) {
    this.handler = handler;
  }

  receiveAck(serial: string, payload: Buffer) {
    this.handler?.(serial, payload);
  }
}
