/**
 * Scale-out: the port contracts on MongoDB (FerretDB) and S3 (versitygw), started by the global
 * setup on 127.0.0.1; two API processes over one MongoDB and one S3; start-up failures that name the
 * store; and the orphan sweep. Skipped, saying why, when the servers are not installed.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { MongoClient } from 'mongodb';
import { describe, expect, inject, it } from 'vitest';
import { ConfigError } from '../../src/config.js';
import { ServiceBusyError } from '../../src/domain/kernel/errors.js';
import { newBlobStem, newId } from '../../src/domain/kernel/ids.js';
import { openStorage } from '../../src/adapters/storage/index.js';
import { openMongoStore } from '../../src/adapters/storage/mongo/index.js';
import { openS3BlobStore } from '../../src/adapters/storage/s3.js';
import { blobStoreContract } from './contract/blob-store.js';
import { recordStoreContract } from './contract/record-store.js';
import { solid } from '../support/images.js';
import { runCli } from '../support/process.js';
import { twoProcessChecks } from '../support/two-processes.js';
import { s3Env } from '../support/scale-out.js';
import { download, generate, testServices } from '../support/server.js';

const mongoUri = inject('mongoUri');
const s3 = inject('s3');
const runId = randomBytes(4).toString('hex');
const s3Options = (publicUrl?: string) =>
  s3 && {
    bucket: s3.bucket,
    endpoint: s3.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    publicUrl,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
  };
const NO_MONGO =
  'skipped: no MongoDB server (install ferretdb, as .ci/run does, or set TITLECARD_TEST_MONGODB_URI)';
const NO_S3 = 'skipped: no S3 server (install versitygw, as .ci/run does, or set TITLECARD_TEST_S3_ENDPOINT)';

let db = 0;
if (mongoUri)
  recordStoreContract(
    'MongoDB',
    () => openMongoStore({ uri: mongoUri, dbName: `contract_${runId}_${++db}` }),
    () => ({
      dataDir: path.join(os.tmpdir(), `titlecard-contract-${runId}`),
      mongo: { uri: mongoUri, dbName: `contract_${runId}_${db}` },
    }),
  );
else
  describe.skip(`RecordStore contract: MongoDB (${NO_MONGO})`, () => it('needs a server', () => undefined));

if (s3)
  blobStoreContract('S3', () => openS3BlobStore(s3Options() as NonNullable<ReturnType<typeof s3Options>>));
else describe.skip(`BlobStore contract: S3 (${NO_S3})`, () => it('needs a server', () => undefined));

describe.skipIf(!mongoUri)(`MongoDB specifics${mongoUri ? '' : ` (${NO_MONGO})`}`, () => {
  it('creates the indexes listing, sorting, counting and uniqueness rely on', async () => {
    const dbName = `indexes_${runId}`;
    const store = await openMongoStore({ uri: mongoUri as string, dbName });
    await store.close();
    const client = await MongoClient.connect(mongoUri as string);
    const names = async (c: string) =>
      (await client.db(dbName).collection(c).listIndexes().toArray()).map((i) => i.name as string);
    expect(await names('users')).toContain('email_unique');
    expect(await names('tokens')).toEqual(expect.arrayContaining(['token_hash_unique', 'tokens_by_user']));
    expect(await names('images')).toEqual(
      expect.arrayContaining(['images_by_user_created', 'images_by_user_title_key']),
    );
    await client.close();
  });

  it('gives images written before the title key (with titleLower) their keys when the store opens, and sorts by them', async () => {
    const dbName = `title_keys_${runId}`;
    const client = await MongoClient.connect(mongoUri as string);
    try {
      const old = ['Ärmel', 'ärger', 'Zebra', 'Émile'].map((title, i) => ({
        _id: `img_old${i}`,
        userId: 'usr_old',
        title,
        titleLower: title.toLowerCase(),
        subtitle: null,
        width: 1,
        height: 1,
        format: 'png',
        imageKey: 'k',
        thumbnailKey: 't',
        createdAt: new Date('2026-01-01T00:00:00Z'),
      }));
      await client.db(dbName).collection<{ _id: string }>('images').insertMany(old);
      await client
        .db(dbName)
        .collection('images')
        .createIndex({ userId: 1, titleLower: 1, _id: 1 }, { name: 'images_by_user_title' });
      const store = await openMongoStore({ uri: mongoUri as string, dbName });
      const page = await store.images.list('usr_old', { limit: 10, offset: 0, sort: 'title', order: 'asc' });
      expect(page.items.map((i) => i.title)).toEqual(['ärger', 'Ärmel', 'Émile', 'Zebra']);
      await store.close();
      const docs = await client
        .db(dbName)
        .collection('images')
        .find({ titleLower: { $exists: true } })
        .toArray();
      expect(docs).toEqual([]);
      const indexes = (await client.db(dbName).collection('images').listIndexes().toArray()).map(
        (i) => i.name as string,
      );
      expect(indexes).not.toContain('images_by_user_title');
    } finally {
      await client.close();
    }
  });

  it('a quota charge that keeps colliding ends in a busy error (503 at the edge), never a plain Error', async () => {
    const dbName = `busy_${runId}`;
    const store = await openMongoStore({ uri: mongoUri as string, dbName });
    const client = await MongoClient.connect(mongoUri as string);
    try {
      // Slot documents whose month field says otherwise: the charge sees every slot free, and every
      // claim collides with their _id, as under endless contention.
      const userId = newId('usr');
      await client
        .db(dbName)
        .collection<{ _id: string }>('usage_slots')
        .insertMany(
          Array.from({ length: 3 }, (_, slot) => ({
            _id: `${userId}:2026-09:${slot}`,
            userId,
            month: 'elsewhere',
            slot,
          })),
        );
      await expect(store.usage.tryCharge(userId, '2026-09', 3)).rejects.toBeInstanceOf(ServiceBusyError);
    } finally {
      await client.close();
      await store.close();
    }
  });
});

describe.skipIf(!s3)(`S3 specifics${s3 ? '' : ` (${NO_S3})`}`, () => {
  it('stores objects with their Content-Type and an immutable Cache-Control, and builds public URLs on S3_PUBLIC_URL', async () => {
    const store = await openS3BlobStore(
      s3Options('https://cdn.example.com/cards/') as NonNullable<ReturnType<typeof s3Options>>,
    );
    const key = `${newBlobStem()}.webp`;
    const body = randomBytes(300_000); // larger than one chunk: checksums must not corrupt it
    await store.put(key, body, 'image/webp');
    expect((await store.get(key))?.body.equals(body)).toBe(true);
    const client = new S3Client({
      endpoint: s3?.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: s3?.accessKeyId ?? '', secretAccessKey: s3?.secretAccessKey ?? '' },
    });
    const head = await client.send(new HeadObjectCommand({ Bucket: s3?.bucket, Key: key }));
    expect(head.ContentType).toBe('image/webp');
    expect(head.CacheControl).toBe('public, max-age=31536000, immutable');
    expect(head.ContentLength).toBe(body.length);
    expect(store.publicUrl(key)).toBe(`https://cdn.example.com/cards/${key}`);
    client.destroy();
    await store.close();
  });
});

describe('a store that cannot be used stops start-up with a message naming it', () => {
  it('unreachable MongoDB', async () => {
    const err = await openStorage({
      dataDir: os.tmpdir(),
      mongo: { uri: 'mongodb://user:hunter2@127.0.0.1:1/', dbName: 'x' },
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toMatch(
      /MongoDB at mongodb:\/\/user:\*\*\*@127\.0\.0\.1:1\/ \(MONGODB_URI\)/,
    );
    expect((err as Error).message).not.toContain('hunter2');
  }, 20_000);

  it('unreachable or missing S3 bucket', async () => {
    // A directory of its own: the embedded record store opens there too.
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'titlecard-s3-refused-'));
    const err = await openStorage({
      dataDir,
      s3: {
        bucket: 'nope',
        endpoint: 'http://127.0.0.1:1',
        region: 'us-east-1',
        forcePathStyle: true,
        publicUrl: undefined,
      },
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toMatch(/S3 bucket nope at http:\/\/127\.0\.0\.1:1 \(S3_BUCKET\)/);
    if (s3) {
      const missing = await openStorage({
        dataDir,
        s3: { ...(s3Options() as NonNullable<ReturnType<typeof s3Options>>), bucket: `missing-${runId}` },
      }).catch((e: unknown) => e);
      expect((missing as Error).message).toMatch(new RegExp(`S3 bucket missing-${runId}`));
    }
    await rm(dataDir, { recursive: true, force: true });
  }, 30_000);
});

describe.skipIf(!mongoUri || !s3)(
  `two API processes over one MongoDB and one S3${mongoUri && s3 ? '' : ` (${!mongoUri ? NO_MONGO : NO_S3})`}`,
  () => {
    const dbName = `twoproc_${runId}`;
    const running = twoProcessChecks(() => ({
      config: {
        mongo: { uri: mongoUri as string, dbName },
        s3: s3Options(),
      },
      env: { MONGODB_URI: mongoUri as string, MONGODB_DB: dbName, ...s3Env(s3) },
    }));

    it('titlecard sweep removes files no record points to, and only those', async () => {
      const { a, local, blobs, env } = running();
      const orphan = `${newBlobStem()}.png`;
      await blobs.put(orphan, Buffer.from('orphan'), 'image/png');
      const { token } = await local.accounts.createUser({
        email: `sweep-${runId}@example.com`,
        displayName: 'Sweep',
        tier: 'pro',
      });
      const kept = await generate(
        a.base,
        token.token,
        { title: 'Kept' },
        { data: await solid([90, 40, 120], 'jpeg', 480, 300) },
      );
      const dry = await runCli(['sweep', '--grace-minutes', '0', '--dry-run', '--json'], env);
      expect(dry.code, dry.stderr).toBe(0);
      expect((JSON.parse(dry.stdout) as { deleted: string[] }).deleted).toContain(orphan);
      expect(await blobs.get(orphan)).toBeDefined();
      const real = await runCli(['sweep', '--grace-minutes', '0', '--json'], env);
      expect((JSON.parse(real.stdout) as { deleted: string[] }).deleted).toContain(orphan);
      expect(await blobs.get(orphan)).toBeUndefined();
      expect((await download(kept.body.data.url as string)).status).toBe(200);
    });
  },
);

describe('titlecard sweep on the embedded default', () => {
  it('keeps young files (a generation may be in flight), referenced ones and uploads; deletes old orphans and stranded hand-off uploads', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'titlecard-sweep-'));
    const storage = await openStorage({ dataDir });
    const services = testServices({ ...storage, publicUrl: 'http://x' });
    const { token } = await services.accounts.createUser({
      email: 'sweep@example.com',
      displayName: 'S',
      tier: 'pro',
    });
    const principal = await services.accounts.authenticate(`Bearer ${token.token}`);
    const { image } = await services.generation.generate(principal, async () => ({
      image: await solid([1, 2, 3], 'png', 300, 200),
      options: { title: 'Kept' },
    }));
    const orphan = `${newBlobStem()}_thumb.png`;
    await storage.blobs.put(orphan, Buffer.from('x'), 'image/png');
    // An upload left on its way to a worker (GENERATE_ON_WORKERS) goes too; an asset stays.
    const handoff = `${newBlobStem()}_upload.bin`;
    await storage.blobs.put(handoff, Buffer.from('x'), 'application/octet-stream');
    const asset = `${newBlobStem()}_asset.png`;
    await storage.blobs.put(asset, Buffer.from('x'), 'image/png');
    expect(await services.files.sweepOrphans({ olderThan: new Date(Date.now() - 60_000) })).toEqual([]);
    expect((await services.files.sweepOrphans({ olderThan: new Date(Date.now() + 1000) })).sort()).toEqual(
      [orphan, handoff].sort(),
    );
    expect(await storage.blobs.get(asset)).toBeDefined();
    expect(
      await services.files.fileInfo(new URL(image.url).pathname.split('/').pop() as string),
    ).toBeDefined();
    await services.close();
    await rm(dataDir, { recursive: true, force: true });
  });
});
