import { PostgresStore } from '/work/wt/scale/src/stores/postgres.ts';
import { createAgencies } from '/work/wt/scale/test/queue/fixtures/agencies.ts';
process.env.COLLOQUY_TEST_MODEL_DELAY_MS = '0';
const store = new PostgresStore({ connectionString: process.argv[2] });
const [echo] = createAgencies({ store });
console.log('start');
for (let i = 0; i < 3; i++) { const t = Date.now(); await echo!.getResponse('hello', { chatId: 'b' + Math.random() }); console.log(Date.now() - t); }
await store.close();
