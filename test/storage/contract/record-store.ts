/**
 * The contract of the RecordStore port (src/domain/kernel/ports.ts). Every adapter runs this same suite;
 * an adapter that passes it is done.
 */
import { describe } from 'vitest';
import type { RecordStore } from '../../../src/domain/kernel/ports.js';
import type { StorageConfig } from '../../../src/adapters/storage/index.js';
import type { ContractContext } from './records/fixtures.js';
import { usersContract } from './records/users.js';
import { tokensContract } from './records/tokens.js';
import { imagesContract } from './records/images.js';
import { sessionsContract } from './records/sessions.js';
import { emailLinksContract } from './records/email-links.js';
import { idempotencyContract } from './records/idempotency.js';
import { oauthContract } from './records/oauth.js';
import { renderLinksContract } from './records/render-links.js';
import { usageContract } from './records/usage.js';
import { sitesContract } from './records/sites.js';
import { batchesContract } from './records/batches.js';
import { webhooksContract } from './records/webhooks.js';
import { templatesContract } from './records/templates.js';
import { workspacesContract } from './records/workspaces.js';

/**
 * `open` opens the adapter in this process; `storage()` is the store `open` opened last, as
 * configuration, for other processes to open it too (the concurrency checks). One part per
 * repository of the port, in `records/`.
 */
export function recordStoreContract(
  name: string,
  open: () => Promise<RecordStore>,
  storage: () => StorageConfig,
): void {
  describe(`RecordStore contract: ${name}`, () => {
    let n = 0;
    const context: ContractContext = { open, storage, email: () => `c${++n}-${Date.now()}@example.com` };
    usersContract(context);
    tokensContract(context);
    imagesContract(context);
    sessionsContract(context);
    emailLinksContract(context);
    idempotencyContract(context);
    oauthContract(context);
    renderLinksContract(context);
    usageContract(context);
    sitesContract(context);
    batchesContract(context);
    webhooksContract(context);
    templatesContract(context);
    workspacesContract(context);
  });
}
