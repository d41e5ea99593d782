import { fileURLToPath } from 'node:url';

/** The pet store document the tests and the README use (src/fixtures/pets.yaml). */
export const PETS_FIXTURE = fileURLToPath(new URL('./fixtures/pets.yaml', import.meta.url));
