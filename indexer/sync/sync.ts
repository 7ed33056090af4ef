// sync: applies what changed in the PostgreSQL relation since the live index's high-water mark to that index in
// place (docs/record.md, "PostgreSQL"), one run at a time (syncRun.ts; --follow repeats it, syncFollow.ts). A run
// on the live index is guarded (liveGuard.ts) and logged in the change log. The run resolves the alias first, so
// after a reindex swaps it the next run replays from the new generation's own mark.
import type { Client } from '@elastic/elasticsearch';
import type { ChangeLog } from '../changes/changeLog.js';
import { applyLogged } from '../changes/loggedWrites.js';
import type { RemovalLimit } from '../changes/removalGuard.js';
import { aliasTarget } from '../elasticsearch/aliases.js';
import { applyChanges } from '../elasticsearch/changeBulk.js';
import { addMissingFields } from '../elasticsearch/indexMapping.js';
import { partiesTouched, rebuildParties } from '../elasticsearch/partiesIndex.js';
import { indexedSlugs } from '../elasticsearch/servedEntries.js';
import { IndexerError } from '../errors.js';
import type { IndexerLogger } from '../indexerLog.js';
import { PostgresChangeReader } from '../sources/postgresChanges.js';
import { DEFAULT_RELATION } from '../sources/postgresRelation.js';
import {
  DEFAULT_BATCH_SIZE,
  DEFAULT_OVERLAP_S,
  RecentlyApplied,
  runOnIndex,
  type SyncRunSummary,
  type SyncTarget,
} from './syncRun.js';
import { guardLiveRemovals } from './liveGuard.js';

export type { SyncRunSummary };

/** Slugs a page when the reconcile lists the live index's slugs. */
const SLUGS_PER_PAGE = 10_000;

export interface SyncOptions {
  client: Client;
  alias: string;
  /** postgres:// URL. */
  url: string;
  relation?: string;
  overlapSeconds?: number;
  /** Rows per fetch and per _bulk request (default 500). */
  batchSize?: number;
  logger?: IndexerLogger;
  signal?: AbortSignal;
  /** Where the changes to the live index are logged (absent: not logged). */
  changeLog?: ChangeLog;
  /** How many of the live PPAs one run may remove before it applies nothing (default 5%). */
  maxRemoved?: RemovalLimit;
}

export class Sync {
  private readonly reader: PostgresChangeReader;
  private readonly logger: IndexerLogger;
  private recent = new RecentlyApplied();
  private target: string | null = null;

  constructor(private readonly options: SyncOptions) {
    this.reader = new PostgresChangeReader(options.url, options.relation ?? DEFAULT_RELATION);
    this.logger = options.logger ?? { info: () => undefined, warn: () => undefined, error: () => undefined };
  }

  /**
   * One run on the alias's live index. `shouldReconcile` gets the runs already made on the live index (kept in its
   * _meta, so one-shot runs from cron count too) and says whether this one compares slugs.
   */
  async run(shouldReconcile: (runsOnIndex: number) => boolean): Promise<SyncRunSummary> {
    const { client, alias } = this.options;
    const index = await aliasTarget(client, alias);
    if (index === null) throw new IndexerError(`alias "${alias}" does not exist: run a reindex first`);
    if (index !== this.target) {
      if (this.target !== null) this.logger.info({ index }, 'the alias moved: replaying onto the new index');
      await addMissingFields(client, index);
      this.recent = new RecentlyApplied();
      this.target = index;
    }
    return runOnIndex({
      client,
      index,
      reader: this.reader,
      target: this.liveTarget(index),
      recent: this.recent,
      shouldReconcile,
      overlapSeconds: this.options.overlapSeconds ?? DEFAULT_OVERLAP_S,
      batchSize: this.options.batchSize ?? DEFAULT_BATCH_SIZE,
      logger: this.logger,
      ...(this.options.signal ? { signal: this.options.signal } : {}),
    });
  }

  async close(): Promise<void> {
    await this.reader.close();
  }

  /** The live index: what a run would remove is counted and guarded before anything is written, and logged. */
  private liveTarget(index: string): SyncTarget {
    const { client, alias, changeLog } = this.options;
    return {
      prepare: async (snapshot, { from, reconcile, heldSince }) => {
        const vanished: string[] = [];
        if (reconcile)
          for await (const slug of snapshot.vanished(indexedSlugs(client, index, SLUGS_PER_PAGE)))
            vanished.push(slug);
        await guardLiveRemovals(client, index, snapshot, {
          from,
          overlapSeconds: this.options.overlapSeconds ?? DEFAULT_OVERLAP_S,
          vanished: vanished.length,
          heldSince,
          maxRemoved: this.options.maxRemoved,
        });
        return vanished;
      },
      write: async (changes, removal) => {
        // The parties named before and after the batch are rebuilt once it is searchable (partiesIndex.ts).
        const touched = await partiesTouched(client, index, changes);
        const logged = changeLog
          ? await applyLogged(client, changeLog, { alias, index }, changes, () => removal)
          : (await applyChanges(client, index, changes), 0);
        await rebuildParties(client, alias, index, touched);
        return logged;
      },
    };
  }
}
