/**
 * The webhook sender: claims due deliveries from the outbox, signs each attempt with
 * every current secret, checks the URL again (an address may have changed since registration),
 * sends it through the transport and records the outcome the retry schedule decides. Up to
 * `concurrency` attempts in flight, claimed in batches as slots free up (run()). stop() waits for
 * the sends under way, so that none is cut off mid-record.
 */
import { checkWebhookUrl, type Lookup } from './address-policy.ts';
import type { ClaimedDelivery, DeliveryOutcome, WebhookStore, WebhookTransport } from '../ports/webhooks.ts';
import { failingTooLong, nextStep, type AttemptResult } from './retry-schedule.ts';
import { webhookHeaders, webhookTimestamp } from './signing.ts';

export interface WebhookSenderOptions {
  store: WebhookStore;
  transport: WebhookTransport;
  /** Allow http and addresses that are not public (WEBHOOK_ALLOW_PRIVATE). */
  allowPrivate: boolean;
  /** Deliveries in flight at once (default 16). */
  concurrency?: number;
  /** Per attempt; 15 s by default, as the issue says. */
  timeoutMs?: number;
  /** Wait between polls of an empty outbox. */
  pollMs?: number;
  /** How long a claim is the sender's; more than the timeout, so a live attempt is not claimed twice. */
  leaseMs?: number;
  lookup?: Lookup;
  now?: () => Date;
  /** The jitter source of the retry schedule; tests pass one. */
  random?: () => number;
  /** Overrides the retry delay (tests: retry at once). */
  retryDelayMs?: (attempt: number, scheduledMs: number) => number;
  /** Called with every recorded outcome (metrics). */
  onOutcome?: (status: DeliveryOutcome['status']) => void;
}

export interface WebhookSender {
  start(): void;
  /** Stops claiming and resolves when the attempts under way have recorded their outcomes. */
  stop(): Promise<void>;
  /** One round: claim up to `concurrency` deliveries and send them. Returns how many were claimed. */
  runOnce(): Promise<number>;
}

const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_CONCURRENCY = 16;

/** The exact JSON sent: the body the signature covers. */
function deliveryBody(delivery: Pick<ClaimedDelivery, 'event_type' | 'payload'>, at: Date): string {
  return JSON.stringify({ type: delivery.event_type, timestamp: at.toISOString(), data: delivery.payload });
}

/** What one attempt came to, before it is judged: the result, and the answer's code and time. */
interface Sent {
  result: AttemptResult;
  responseCode: number | null;
  latencyMs: number;
}

export function createWebhookSender(options: WebhookSenderOptions): WebhookSender {
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const pollMs = options.pollMs ?? 1000;
  const leaseMs = options.leaseMs ?? timeoutMs + 30_000;
  const now = options.now ?? (() => new Date());
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error(`concurrency ${concurrency} is not 1 or more`);
  if (!(leaseMs > timeoutMs)) throw new Error(`lease ${leaseMs} ms must be longer than the timeout ${timeoutMs} ms`);

  let running = false;
  let loop: Promise<void> | null = null;
  const sleepers = new Set<() => void>();

  async function attempt(delivery: ClaimedDelivery): Promise<void> {
    const outcome = decide(delivery, await send(delivery));
    const recorded = await options.store.recordOutcome(delivery, outcome);
    if (recorded) options.onOutcome?.(outcome.status);
  }

  /** Sign and send one delivery, unless its address may not be sent to; what came of it. */
  async function send(delivery: ClaimedDelivery): Promise<Sent> {
    const at = now();
    const body = deliveryBody(delivery, at);
    const headers = webhookHeaders(delivery.secrets, { id: delivery.id, timestamp: webhookTimestamp(at), body });
    const verdict = await checkWebhookUrl(delivery.url, {
      allowPrivate: options.allowPrivate,
      ...(options.lookup ? { lookup: options.lookup } : {}),
    });
    if (!verdict.ok) {
      return { result: { kind: 'network', error: `Not sent: ${verdict.reason}` }, responseCode: null, latencyMs: 0 };
    }
    const sent = await options.transport.send({
      url: verdict.url,
      addresses: verdict.addresses,
      headers,
      body,
      timeoutMs,
    });
    const { latencyMs } = sent;
    if (sent.kind === 'response') {
      return { result: { kind: 'response', status: sent.status }, responseCode: sent.status, latencyMs };
    }
    if (sent.kind === 'timeout') return { result: { kind: 'timeout' }, responseCode: null, latencyMs };
    return { result: { kind: 'network', error: sent.error }, responseCode: null, latencyMs };
  }

  function decide(delivery: ClaimedDelivery, { result, responseCode, latencyMs }: Sent): DeliveryOutcome {
    const error =
      result.kind === 'response'
        ? `HTTP ${result.status}`
        : result.kind === 'timeout'
          ? `No answer within ${timeoutMs} ms.`
          : result.error;
    const step = nextStep(result, delivery.attempt, options.random);
    if (step.action === 'delivered') return { status: 'delivered', responseCode, latencyMs, error: null };
    if (step.action === 'disable-endpoint') {
      return { status: 'disable-endpoint', reason: step.reason, responseCode, latencyMs, error };
    }
    // An endpoint that has failed every attempt for three days is disabled, whatever is left.
    if (failingTooLong(delivery.endpoint_failing_since, now())) {
      return {
        status: 'disable-endpoint',
        reason: 'Every attempt failed for three days.',
        responseCode,
        latencyMs,
        error,
      };
    }
    if (step.action === 'give-up') return { status: 'failed', responseCode, latencyMs, error };
    const delayMs = options.retryDelayMs ? options.retryDelayMs(delivery.attempt, step.delayMs) : step.delayMs;
    return { status: 'retry', delayMs, responseCode, latencyMs, error };
  }

  async function runOnce(): Promise<number> {
    const claimed = await options.store.claimDue(concurrency, leaseMs);
    // One failing attempt (the store unreachable while recording) must not lose the others; its
    // lease runs out and it is claimed again.
    await Promise.allSettled(claimed.map((delivery) => attempt(delivery)));
    return claimed.length;
  }

  /**
   * Keeps up to `concurrency` attempts in flight: claims again, for every free slot at once, as
   * soon as half of them are free, without waiting for the slowest attempt of the last claim. A
   * receiver that takes its whole timeout holds only its own slot. An empty outbox is polled
   * every `pollMs`.
   */
  async function run(): Promise<void> {
    const inFlight = new Set<Promise<void>>();
    const refillAt = Math.ceil(concurrency / 2);
    while (running) {
      const free = concurrency - inFlight.size;
      if (free < refillAt) {
        await Promise.race(inFlight);
        continue;
      }
      let claimed: ClaimedDelivery[] = [];
      try {
        claimed = await options.store.claimDue(free, leaseMs);
      } catch (error) {
        console.error('webhook sender: claiming failed', error);
      }
      for (const delivery of claimed) {
        // attempt() records its own outcome; one that cannot (the store unreachable) is claimed
        // again when its lease runs out.
        const sending: Promise<void> = attempt(delivery)
          .catch((error: unknown) => console.error('webhook sender: attempt failed', error))
          .finally(() => inFlight.delete(sending));
        inFlight.add(sending);
      }
      if (claimed.length < free && running) await asleep(pollMs);
    }
    await Promise.all(inFlight);
  }

  /** A pause that stop() cuts short. */
  function asleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      sleepers.add(wake);
    });
  }

  return {
    start() {
      if (running) return;
      running = true;
      loop = run();
    },
    async stop() {
      running = false;
      for (const wake of [...sleepers]) wake();
      await loop;
      loop = null;
    },
    runOnce,
  };
}
