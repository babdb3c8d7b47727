/** The environment of a `titlecard` process on the test's S3 server (test/support/servers.ts). */
import type { S3TestServer } from './servers.js';

/** S3_* and AWS_* for a process on `s3`; empty without one. */
export const s3Env = (s3: S3TestServer | undefined): Record<string, string> =>
  s3
    ? {
        S3_BUCKET: s3.bucket,
        S3_ENDPOINT: s3.endpoint,
        S3_FORCE_PATH_STYLE: 'true',
        AWS_ACCESS_KEY_ID: s3.accessKeyId,
        AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
        AWS_REGION: 'us-east-1',
      }
    : {};
