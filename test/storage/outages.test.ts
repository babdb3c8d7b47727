/**
 * Each adapter reads its own driver's outage errors (src/adapters; issue 50): a MongoDB network
 * error, an S3 answer that never came or a 5xx, an ioredis command refused while disconnected are
 * the 503 `UNAVAILABLE` naming the store; a driver's other errors, and other errors, are not.
 */
import { describe, expect, it } from 'vitest';
import { redisOutage } from '../../src/adapters/queue.js';
import { mongoOutage } from '../../src/adapters/storage/mongo/outage.js';
import { s3Outage } from '../../src/adapters/storage/s3.js';
import { outageOf, recognizeOutages, ServiceUnavailableError } from '../../src/domain/kernel/errors.js';

const named = (name: string, message = 'x', extra: Record<string, unknown> = {}) =>
  Object.assign(new Error(message), { name }, extra);

describe("the adapters' readings of their drivers' errors", () => {
  recognizeOutages(mongoOutage, s3Outage, redisOutage);

  it('MongoDB: network, selection and pool errors are the record store away; a duplicate key is not', () => {
    expect(outageOf(named('MongoServerSelectionError'))?.message).toMatch(/record store does not answer/);
    expect(outageOf(named('MongoNetworkTimeoutError'))).toBeInstanceOf(ServiceUnavailableError);
    expect(outageOf(named('MongoServerError', 'E11000 duplicate key'))).toBeUndefined();
  });

  it('S3: no answer, a 5xx or SlowDown is the file store away; a 404 is not', () => {
    expect(outageOf(named('TimeoutError', 'x', { $metadata: {} }))?.message).toMatch(/file store/);
    expect(outageOf(named('InternalError', 'x', { $metadata: { httpStatusCode: 500 } }))).toBeDefined();
    expect(outageOf(named('SlowDown', 'x', { $metadata: { httpStatusCode: 503 } }))).toBeDefined();
    expect(outageOf(named('NoSuchKey', 'x', { $metadata: { httpStatusCode: 404 } }))).toBeUndefined();
  });

  it('Redis: retries used up or a closed connection is the queue away, also as the cause of another error', () => {
    expect(outageOf(named('MaxRetriesPerRequestError'))?.message).toMatch(/queue does not answer/);
    const wrapped = new Error('could not add the job', { cause: new Error('Connection is closed.') });
    expect(outageOf(wrapped)?.message).toMatch(/queue does not answer/);
    expect(outageOf(new Error('WRONGTYPE Operation against a key'))).toBeUndefined();
  });

  it('a socket error is a store away whichever driver threw it; a plain error is not an outage', () => {
    expect(outageOf(Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }))).toBeDefined();
    expect(outageOf(new Error('a bug'))).toBeUndefined();
  });
});
