import { Job, Queue } from 'bullmq';
import { Redis } from 'ioredis';
const [R, prefix, id] = process.argv.slice(2);
const q = new Queue('work', { connection: new Redis(R, { maxRetriesPerRequest: null }), prefix });
const j = await Job.fromId(q, id);
console.log(await q.getJobState(id), typeof j?.returnvalue, JSON.stringify(j?.returnvalue)?.slice(0, 80));
await q.close(); process.exit(0);
