// PostgresStore under concurrent writers on separate connections and with dropped connections.
import { postgresBackend } from './isolatedStores.js';
import { runRobustnessTests } from './robustness.js';

runRobustnessTests(postgresBackend());
