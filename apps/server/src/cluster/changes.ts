import type { FastifyBaseLogger } from 'fastify';
import type { Bus } from './bus.ts';

/**
 * Configuration that services keep in memory (markets, contract specs, the market maker's
 * settings), told when an operator changes it. The process that made the change runs the hooks
 * itself, then tells the others through the bus; each of them runs the same hooks. So the next
 * request on any process reads the new values, without a restart and without every request
 * asking the database whether something changed.
 */
export type ConfigArea = 'currencies' | 'markets' | 'contracts' | 'options' | 'maker' | 'bank';

export interface ConfigChanges {
  /** Runs `fn` after each change of `area`, here or on another process (in registration order). */
  on(area: ConfigArea, fn: () => void | Promise<void>): void;
  /** Call after the change's commit: this process's hooks, then every other process's. */
  changed(area: ConfigArea): Promise<void>;
}

const TOPIC = 'config-changed';

export function configChanges(bus: Bus | null, log: FastifyBaseLogger): ConfigChanges {
  const hooks = new Map<ConfigArea, (() => void | Promise<void>)[]>();
  const run = async (area: ConfigArea) => {
    for (const fn of hooks.get(area) ?? []) {
      try {
        await fn();
      } catch (err) {
        log.error({ err, area }, 'configuration: a cache could not be refreshed');
      }
    }
  };
  bus?.onBroadcast(TOPIC, (data) => void run((data as { area: ConfigArea }).area));
  return {
    on(area, fn) {
      hooks.set(area, [...(hooks.get(area) ?? []), fn]);
    },
    async changed(area) {
      await run(area);
      // A process that misses the message (Redis down at that moment) keeps the old values until
      // its next start: the operator sees the warning in the log (docs/decisions.md).
      await bus
        ?.broadcast(TOPIC, { area })
        .catch((err) => log.warn({ err, area }, 'configuration change not announced to the other processes'));
    },
  };
}
