// RedisStore under concurrent writers on separate connections and with dropped connections.
import { redisBackend } from './isolatedStores.js';
import { runRobustnessTests } from './robustness.js';

runRobustnessTests(redisBackend());
