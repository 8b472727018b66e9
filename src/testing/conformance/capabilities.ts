/** Conformance: the declared capabilities match what the store does. @module */
import { describe, expect, it } from 'vitest';
import { storeCapabilities } from '../../stores/capabilities.js';
import { MemoryTraceStore } from '../../stores/traceStore.js';
import { traceStoreFor } from '../../stores/traceStores.js';
import type { StoreHandle } from './helpers.js';

/** `leases`, `appendMany`, `traces` and `crossProcess` as declared, checked against behaviour. */
export function capabilityTests(store: StoreHandle): void {
  describe('capabilities', () => {
    it('declares each capability as a boolean', () => {
      const caps = storeCapabilities(store());
      for (const name of ['leases', 'appendMany', 'traces', 'crossProcess'] as const)
        expect(typeof caps[name], name).toBe('boolean');
    });

    it('has appendMany exactly when it declares it', () => {
      expect(typeof store().appendMany === 'function').toBe(storeCapabilities(store()).appendMany);
    });

    it('has working leases when it declares them (and when it is crossProcess)', async () => {
      const caps = storeCapabilities(store());
      if (caps.crossProcess) expect(caps.leases).toBe(true);
      if (!caps.leases) return;
      const leases = store().leases;
      expect(leases).toBeDefined();
      expect(await leases!.acquire('capability-check', 'one', 5_000)).toBe(true);
      expect(await leases!.acquire('capability-check', 'two', 5_000)).toBe(false);
      await leases!.release('capability-check', 'one');
      expect(await leases!.acquire('capability-check', 'two', 5_000)).toBe(true);
    });

    it('keeps traces in its own storage exactly when it declares traces', async () => {
      const traces = await traceStoreFor(store());
      expect(traces instanceof MemoryTraceStore).toBe(!storeCapabilities(store()).traces);
    });
  });
}
