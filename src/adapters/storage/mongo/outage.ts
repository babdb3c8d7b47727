/** The MongoDB driver's errors that mean the record store is away (for kernel/errors.ts `outageOf`). */
import { type OutageRecognizer, ServiceUnavailableError } from '../../../domain/kernel/errors.js';

/** Names of the MongoDB driver's errors that mean the server cannot be reached or answered too late. */
const MONGO_OUTAGES = new Set([
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoServerSelectionError',
  'MongoNotConnectedError',
  'MongoTopologyClosedError',
  'MongoPoolClearedError',
]);

/** A MongoDB network or server-selection error as the record store's outage. */
export const mongoOutage: OutageRecognizer = (e) =>
  typeof e.name === 'string' && MONGO_OUTAGES.has(e.name)
    ? new ServiceUnavailableError('The record store does not answer: try again in a moment')
    : undefined;
