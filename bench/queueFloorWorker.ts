/**
 * The bare BullMQ worker of `bench/scale-out.ts`'s "queue floor" lines, run as its own process (as
 * `colloquy worker` is): an empty processor that publishes the job's id on the channel named in
 * its data (when there is one) and returns it. Nothing of Colloquy's runs here, so the round trip
 * it serves is what any queued call pays at least.
 * Usage (the bench forks it): `tsx bench/queueFloorWorker.ts REDIS_URL PREFIX`.
 */
import { Worker } from 'bullmq';
import { Redis } from 'ioredis';

const [url, prefix] = process.argv.slice(2);
if (!url || !prefix) {
  console.error('usage: tsx bench/queueFloorWorker.ts REDIS_URL PREFIX');
  process.exit(2);
}
const commands = new Redis(url);
const worker = new Worker(
  'floor',
  async (job) => {
    const { channel } = job.data as { channel?: string };
    if (channel) await commands.publish(channel, job.id!);
    return job.id;
  },
  {
    connection: new Redis(url, { maxRetriesPerRequest: null }),
    prefix,
    concurrency: 4,
    lockDuration: 10_000,
  },
);
await worker.waitUntilReady();
process.send?.('ready');
process.on('SIGTERM', () => {
  void worker
    .close()
    .then(() => commands.quit())
    .then(() => process.exit(0));
});
