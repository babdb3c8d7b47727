/**
 * The scale-out blob store: any S3-compatible object store. Objects carry their Content-Type and a
 * long immutable Cache-Control (a file never changes), so a public bucket or a CDN in front of it can
 * serve them directly (S3_PUBLIC_URL); otherwise Titlecard serves them at /files/<key>.
 *
 * The SDK's default request checksums (CRC32 in aws-chunked trailers, since @aws-sdk/client-s3
 * 3.729) corrupt uploads on servers that do not understand them, so checksums are computed and
 * validated only when the operation requires them.
 */
import type { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import { type OutageRecognizer, ServiceUnavailableError } from '../../domain/kernel/errors.js';
import type { BlobStore } from '../../domain/kernel/ports.js';
import {
  assertBlobKey,
  STORED_KEY_PATTERN,
  contentTypeOfKey,
  FILE_CACHE_CONTROL,
} from '../../domain/images/files.js';

export interface S3StoreOptions {
  bucket: string;
  /** e.g. https://s3.eu-west-1.amazonaws.com or http://127.0.0.1:9000; default: AWS for the region. */
  endpoint?: string | undefined;
  /** Default us-east-1. */
  region?: string | undefined;
  /** Path-style URLs (endpoint/bucket/key), needed by most S3-compatible servers. */
  forcePathStyle?: boolean | undefined;
  /** Public base URL of the bucket or of a CDN in front of it; file URLs become `${publicUrl}/${key}`. */
  publicUrl?: string | undefined;
  /** Credentials; default the SDK's chain (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, profiles, roles). */
  credentials?: { accessKeyId: string; secretAccessKey: string } | undefined;
}

/** Opens the store and checks the bucket answers (HeadBucket). Throws if it cannot be reached. */
export async function openS3BlobStore(options: S3StoreOptions): Promise<BlobStore> {
  const s3 = await import('@aws-sdk/client-s3');
  const client: S3Client = new s3.S3Client({
    region: options.region ?? 'us-east-1',
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    forcePathStyle: options.forcePathStyle ?? false,
    ...(options.credentials ? { credentials: options.credentials } : {}),
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 3,
  });
  const Bucket = options.bucket;
  await client.send(new s3.HeadBucketCommand({ Bucket }));
  const base = options.publicUrl?.replace(/\/+$/, '');
  return {
    async put(key, body, contentType) {
      assertBlobKey(key);
      await client.send(
        new s3.PutObjectCommand({
          Bucket,
          Key: key,
          Body: body,
          ContentType: contentType,
          CacheControl: FILE_CACHE_CONTROL,
        }),
      );
    },
    async get(key) {
      if (!STORED_KEY_PATTERN.test(key)) return undefined;
      try {
        const res = await client.send(new s3.GetObjectCommand({ Bucket, Key: key }));
        const body = Buffer.from(
          await (res.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray(),
        );
        return { body, contentType: res.ContentType ?? contentTypeOfKey(key) };
      } catch (err) {
        if (err instanceof s3.NoSuchKey || (err as { name?: string }).name === 'NoSuchKey') return undefined;
        throw err;
      }
    },
    async stat(key) {
      if (!STORED_KEY_PATTERN.test(key)) return undefined;
      try {
        const res = await client.send(new s3.HeadObjectCommand({ Bucket, Key: key }));
        return { size: res.ContentLength ?? 0, contentType: res.ContentType ?? contentTypeOfKey(key) };
      } catch (err) {
        if ((err as { name?: string }).name === 'NotFound' || (err as { name?: string }).name === 'NoSuchKey')
          return undefined;
        throw err;
      }
    },
    async open(key, range) {
      if (!STORED_KEY_PATTERN.test(key)) return undefined;
      try {
        const res = await client.send(
          new s3.GetObjectCommand({
            Bucket,
            Key: key,
            ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
          }),
        );
        // In Node the SDK's body is a Readable (an IncomingMessage).
        return res.Body as Readable;
      } catch (err) {
        if (err instanceof s3.NoSuchKey || (err as { name?: string }).name === 'NoSuchKey') return undefined;
        throw err;
      }
    },
    async delete(key) {
      assertBlobKey(key);
      await client.send(new s3.DeleteObjectCommand({ Bucket, Key: key }));
    },
    async *list() {
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new s3.ListObjectsV2Command({ Bucket, ContinuationToken }));
        for (const o of page.Contents ?? [])
          if (o.Key && STORED_KEY_PATTERN.test(o.Key))
            yield { key: o.Key, modifiedAt: o.LastModified ?? new Date(0) };
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },
    publicUrl(key) {
      return base ? `${base}/${key}` : undefined;
    },
    localPath() {
      return undefined;
    },
    async close() {
      client.destroy();
    },
  };
}

/**
 * An AWS SDK error as the file store's outage (for kernel/errors.ts `outageOf`): one with no answer
 * (`$metadata` without a status), a 5xx, `SlowDown` or a timeout.
 */
export const s3Outage: OutageRecognizer = (e) => {
  if (!e.$metadata) return undefined;
  const status = (e.$metadata as { httpStatusCode?: number }).httpStatusCode;
  return status === undefined || status >= 500 || e.name === 'SlowDown' || e.name === 'TimeoutError'
    ? new ServiceUnavailableError('The file store does not answer: try again in a moment')
    : undefined;
};
