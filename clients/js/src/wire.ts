/**
 * The view API's answers as the client reads them (docs/API.md): counts, the changes a push lists, pages of the
 * merged list. What comes off the wire is checked before it is shown, so a malformed answer fails its read instead of
 * putting `undefined` on a badge.
 */

/** `GET /v1/users/{userId}/unread`, and every event of the unread stream. */
export interface Counts {
  userId: number;
  total: number;
  unseen: number;
  notices: number;
  byAuthor: Record<string, number>;
  authorsOmitted?: number;
  version: number;
}

/** One listed change of a push (docs/API.md, "The unread stream"). */
export interface Change {
  version?: number;
  kind: string;
  authorId?: number;
  blogId?: number;
  noticeId?: number;
  audience?: string;
}

export interface UnreadItem {
  blogId: number;
  authorId: number;
  publishedAt: string;
}

export interface UnreadPage {
  items: UnreadItem[];
  nextCursor: string | null;
}

export type Json = Record<string, unknown>;

export function parseCounts(text: string): Json {
  const value: unknown = JSON.parse(text);
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new TypeError('counts are not a JSON object');
  return value as Json;
}

/** The counts of an answer or push, checked: a malformed answer fails the read instead of showing `undefined`. */
export function countsOf(json: Json): Counts {
  const { userId, total, unseen, notices, byAuthor, authorsOmitted, version } = json;
  if (!isCount(userId) || !isCount(total) || !isCount(version) || !byAuthor || typeof byAuthor !== 'object') {
    throw new TypeError('the view API answered unreadable counts');
  }
  const counts: Counts = {
    userId, total, version,
    unseen: isCount(unseen) ? unseen : 0,
    notices: isCount(notices) ? notices : 0,
    byAuthor: byAuthor as Record<string, number>,
  };
  if (isCount(authorsOmitted)) counts.authorsOmitted = authorsOmitted;
  return counts;
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

export function isPage(value: unknown): value is UnreadPage {
  if (!value || typeof value !== 'object') return false;
  const page = value as { items?: unknown; nextCursor?: unknown };
  return Array.isArray(page.items) && page.items.every(isItem)
    && (page.nextCursor === null || typeof page.nextCursor === 'string');
}

/** The changes a push lists; entries that are not a change with a kind are left out. */
export function changesOf(json: Json): Change[] {
  const changes = json.changes;
  if (!Array.isArray(changes)) return [];
  return changes.filter((change): change is Change =>
    !!change && typeof change === 'object' && typeof (change as { kind?: unknown }).kind === 'string');
}

function isItem(value: unknown): value is UnreadItem {
  if (!value || typeof value !== 'object') return false;
  const item = value as { blogId?: unknown; authorId?: unknown; publishedAt?: unknown };
  return isCount(item.blogId) && isCount(item.authorId) && typeof item.publishedAt === 'string';
}
