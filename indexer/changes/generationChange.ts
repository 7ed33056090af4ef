// A reindex's or rollback's change of generation, logged: the diff between the outgoing and the incoming index
// (generationDiff.ts), each changed PPA with its document (the incoming one's, or the outgoing one's for a
// removal), appended a batch at a time for the swap that follows.
import type { Client } from '@elastic/elasticsearch';
import type { ChangeLogSession, LoggedChange } from './changeLog.js';
import { upsertReason, type GenerationDiff } from './generationDiff.js';
import { documentsById } from './loggedWrites.js';

const DOCUMENTS_PER_FETCH = 500;

export async function appendGenerationChange(
  client: Client,
  session: ChangeLogSession,
  diff: GenerationDiff,
  generations: { from: string; to: string },
): Promise<void> {
  for (let start = 0; start < diff.entries.length; start += DOCUMENTS_PER_FETCH) {
    const entries = diff.entries.slice(start, start + DOCUMENTS_PER_FETCH);
    // Removed: the outgoing document; updated: both (active before and after tells a (de)activation).
    const outgoing = entries.filter((entry) => entry.kind !== 'added').map((entry) => entry.slug);
    const incoming = entries.filter((entry) => entry.kind !== 'removed').map((entry) => entry.slug);
    const [before, after] = await Promise.all([
      documentsById(client, generations.from, outgoing),
      documentsById(client, generations.to, incoming),
    ]);
    const logged: LoggedChange[] = [];
    for (const entry of entries) {
      const document = (entry.kind === 'removed' ? before : after).get(entry.slug);
      if (!document)
        throw new Error(`the change log could not read "${entry.slug}" back from its generation`);
      const reason = entry.kind === 'updated' ? upsertReason(before.get(entry.slug), document) : entry.reason;
      logged.push({ reason, document });
    }
    await session.append(logged, generations.to);
  }
}
