// The batch pipeline of one market: requests queue, a loop takes everything queued (up to
// BATCH_MAX) as one batch, one transaction; group commit gathers the next batch while the last
// one commits. What a batch does is the desk's; when and with whom it runs is decided here.

/** Requests one batch (one transaction) takes at most from a market's queue. */
export const BATCH_MAX = 512;
/**
 * Group commit. Under load the requests of a market come in waves: those answered by the last
 * commit place their next orders while the next batch runs, so batches alternate between two
 * halves of the traders, each paying a whole commit. When the last batch was at least
 * GATHER_MIN requests, the next one waits up to GATHER_MS for as many as were in flight (the
 * last batch and those queued behind it), so one commit serves them all. Quieter markets never
 * wait.
 */
const GATHER_MIN = 16;
const GATHER_MS = 4;

/** A promise and its resolve (Node 20 has no Promise.withResolvers). */
export function signal<T = void>(): { promise: Promise<T>; resolve: (v: T) => void } {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** A batch as the one after it sees it: whether its current attempt committed, and its end. */
export interface InFlight {
  committed: Promise<boolean>;
  ended: Promise<void>;
}

/**
 * Runs one batch to its end. It may compute only once `previous` has committed, sets
 * `me.committed` for the batch after it, and calls `sent` once all its writes are out (the next
 * batch may then begin).
 */
export type RunBatch<R> = (batch: R[], previous: InFlight, me: InFlight, sent: () => void) => Promise<void>;

/**
 * Spot transactions take turns to lock, across all markets. A batch locks its accounts in
 * two steps (the freeze, then the settlement, whose makers are known only after matching), so
 * two batches locking at once could each hold what the other's settlement needs: a deadlock
 * on PostgreSQL, and a failed batch. The next batch's turn comes once the one before has sent
 * its last write: that one holds every lock it will take and waits for nothing but its
 * COMMIT, so the next may wait on it but never the other way round. Its BEGIN and locks (and
 * on another market, all of it) then overlap the previous batch's writes and commit.
 */
export class Turns {
  private turn: Promise<void> = Promise.resolve();

  /** Resolves when it is the caller's turn, with the function that hands the turn on. */
  take(): Promise<() => void> {
    const mine = signal();
    const before = this.turn;
    this.turn = mine.promise;
    return before.then(() => mine.resolve);
  }
}

export class BatchQueue<R> {
  private queue: R[] = [];
  private running: Promise<void> | null = null;
  /** Set while the loop waits for a batch to fill (GATHER_MS). */
  private gathering: { target: number; wake: () => void } | null = null;
  /** Set while the loop, its queue empty, waits for the batch in flight to end. */
  private arrived: (() => void) | null = null;

  constructor(private readonly run: RunBatch<R>) {}

  enqueue(r: R): void {
    this.queue.push(r);
    this.arrived?.();
    if (this.gathering && this.queue.length >= this.gathering.target) this.gathering.wake();
    this.running ??= this.drain().finally(() => {
      this.running = null;
    });
  }

  /** Whether a batch is queued or under way (a change of the book waits while it is). */
  get busy(): boolean {
    return this.running !== null;
  }

  /** Resolves once every request queued so far (and after) has been answered. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    // Let requests arriving in the same tick join the first batch.
    await new Promise<void>((r) => setImmediate(r));
    let last = 0;
    let previous: InFlight = { committed: Promise.resolve(true), ended: Promise.resolve() };
    while (this.queue.length > 0) {
      const target = last + this.queue.length;
      if (last >= GATHER_MIN && this.queue.length < target) await this.gather(target);
      const batch = this.queue.splice(0, BATCH_MAX);
      last = batch.length;
      // The next batch may begin once this one's writes are out (see Turns); it computes
      // only after this one has committed.
      const sent = signal();
      const current: InFlight = { committed: Promise.resolve(true), ended: Promise.resolve() };
      // Ended means this batch and every one before it (idle() waits for them all).
      const ran = this.run(batch, previous, current, sent.resolve);
      current.ended = Promise.all([ran, previous.ended]).then(() => {});
      previous = current;
      await Promise.race([sent.promise, current.ended]);
      // Nothing queued: wait for this batch to end, or for a request to start the next.
      if (this.queue.length === 0) {
        const arrival = signal();
        this.arrived = arrival.resolve;
        await Promise.race([current.ended, arrival.promise]);
        this.arrived = null;
      }
    }
  }

  /** Resolves once `target` requests are queued, or after GATHER_MS. */
  private gather(target: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => this.gathering?.wake(), GATHER_MS);
      this.gathering = {
        target,
        wake: () => {
          clearTimeout(timer);
          this.gathering = null;
          resolve();
        },
      };
    });
  }
}
