/** The module `colloquy serve` loads for the frontend examples (see colloquy.yaml). */
import { createFrontdesk } from './agency.js';

export default createFrontdesk().agency;
