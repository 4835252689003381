/**
 * The webhook sender (issue 15): claims due deliveries from the outbox, signs each attempt with
 * every current secret, checks the URL again (an address may have changed since registration),
 * sends it through the transport and records the outcome the retry schedule decides. A loop with
 * a small concurrency; stop() waits for the sends under way, so that none is cut off mid-record.
 */
import { checkWebhookUrl, type Lookup } from './address-policy.ts';
import type { ClaimedDelivery, DeliveryOutcome, WebhookStore, WebhookTransport } from './ports.ts';
import { failingTooLong, nextStep, type AttemptResult } from './retry-schedule.ts';
import { webhookHeaders, webhookTimestamp } from './signing.ts';

export interface WebhookSenderOptions {
  store: WebhookStore;
  transport: WebhookTransport;
  /** Allow http and addresses that are not public (WEBHOOK_ALLOW_PRIVATE). */
  allowPrivate: boolean;
  /** Deliveries sent at once. */
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

export const DEFAULT_TIMEOUT_MS = 15_000;

/** The exact JSON sent: the body the signature covers. */
export function deliveryBody(delivery: Pick<ClaimedDelivery, 'event_type' | 'payload'>, at: Date): string {
  return JSON.stringify({ type: delivery.event_type, timestamp: at.toISOString(), data: delivery.payload });
}

export function createWebhookSender(options: WebhookSenderOptions): WebhookSender {
  const concurrency = options.concurrency ?? 4;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const pollMs = options.pollMs ?? 1000;
  const leaseMs = options.leaseMs ?? timeoutMs + 30_000;
  const now = options.now ?? (() => new Date());
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error(`concurrency ${concurrency} is not 1 or more`);
  if (!(leaseMs > timeoutMs)) throw new Error(`lease ${leaseMs} ms must be longer than the timeout ${timeoutMs} ms`);

  let running = false;
  let loop: Promise<void> | null = null;
  let wake: (() => void) | null = null;

  async function attempt(delivery: ClaimedDelivery): Promise<void> {
    const at = now();
    const body = deliveryBody(delivery, at);
    const headers = webhookHeaders(delivery.secrets, { id: delivery.id, timestamp: webhookTimestamp(at), body });
    const verdict = await checkWebhookUrl(delivery.url, {
      allowPrivate: options.allowPrivate,
      ...(options.lookup ? { lookup: options.lookup } : {}),
    });
    let result: AttemptResult;
    let responseCode: number | null = null;
    let latencyMs = 0;
    if (!verdict.ok) {
      result = { kind: 'network', error: `Not sent: ${verdict.reason}` };
    } else {
      const sent = await options.transport.send({
        url: verdict.url,
        addresses: verdict.addresses,
        headers,
        body,
        timeoutMs,
      });
      latencyMs = sent.latencyMs;
      if (sent.kind === 'response') {
        responseCode = sent.status;
        result = { kind: 'response', status: sent.status };
      } else if (sent.kind === 'timeout') {
        result = { kind: 'timeout' };
      } else {
        result = { kind: 'network', error: sent.error };
      }
    }
    const outcome = decide(result, delivery, responseCode, latencyMs);
    const recorded = await options.store.recordOutcome(delivery, outcome);
    if (recorded) options.onOutcome?.(outcome.status);
  }

  function decide(
    result: AttemptResult,
    delivery: ClaimedDelivery,
    responseCode: number | null,
    latencyMs: number,
  ): DeliveryOutcome {
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

  async function run(): Promise<void> {
    while (running) {
      let claimed = 0;
      try {
        claimed = await runOnce();
      } catch (error) {
        console.error('webhook sender: claiming failed', error);
      }
      if (claimed === 0 && running) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, pollMs);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = null;
      }
    }
  }

  return {
    start() {
      if (running) return;
      running = true;
      loop = run();
    },
    async stop() {
      running = false;
      wake?.();
      await loop;
      loop = null;
    },
    runOnce,
  };
}
