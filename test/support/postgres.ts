// A real PostgreSQL for the integration tests: a database of their own per suite (tools/services/postgres.ts,
// shared with the PostgreSQL benchmark).
export { createTestDatabase, type TestDatabase } from '../../tools/services/postgres.js';
