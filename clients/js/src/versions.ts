/**
 * Whether a client missed a change of the user's state, from the versions the view API puts on every answer and push
 * (docs/API.md, "State versions"). It holds two numbers: `shown`, the version of the counts on screen, and `listed`,
 * the newest change the client saw listed or a full read covered. A push's counts may be ahead of its list (the
 * notification of the newest change is still on its way, and the next push lists it), so a gap is a listed change
 * above `listed + 1`, or changes the server left out, or a full read above `listed` after an interruption. A user
 * without changes reads 0, and their first change starts the count at its time in microseconds: from 0, any version
 * is the next one.
 */
export interface Outcome {
  /** Whether to show this answer's counts: false only for a read that a newer push overtook. */
  apply: boolean;
  /** Whether changes were missed, so what the client derived from changes must be read again. */
  gap: boolean;
}

/** A listed change as the stream sends it; broadcasts change no key of the user and carry no version. */
export interface VersionedChange {
  version?: number;
}

export class VersionTracker {
  private shownVersion: number | undefined;
  private listedVersion: number | undefined;

  get shown(): number | undefined {
    return this.shownVersion;
  }

  get listed(): number | undefined {
    return this.listedVersion;
  }

  /**
   * A full read: a stream's first event, or a `GET` of the counts.
   *
   * @param overtaken a push was shown after this read was sent, so an older answer is late, not news
   */
  read(version: number, overtaken = false): Outcome {
    const shown = this.shownVersion;
    const listed = this.listedVersion;
    if (shown === undefined || listed === undefined) return this.hold(version, version, false);
    if (version < shown) {
      if (overtaken) return { apply: false, gap: false };
      // Below what was shown and not overtaken: Redis lost changes and was rebuilt. Take the answer.
      return this.hold(version, version, true);
    }
    return this.hold(version, Math.max(listed, version), version > listed);
  }

  /** A push: the counts after `changes`, with `omitted` more changes the server did not list. */
  push(version: number, changes: readonly VersionedChange[], omitted = 0): Outcome {
    const shown = this.shownVersion;
    let listed = this.listedVersion;
    if (shown === undefined || listed === undefined) return this.read(version);
    if (version < shown) return this.hold(version, version, true); // pushes never go backwards but after a loss
    let gap = omitted > 0;
    const versions = changes.map((change) => change.version).filter(isVersion).sort((a, b) => a - b);
    for (const next of versions) {
      if (next <= listed) continue; // a full read already covered it
      if (next > listed + 1 && listed !== 0) gap = true;
      listed = next;
    }
    return this.hold(version, gap ? Math.max(listed, version) : listed, gap);
  }

  private hold(shown: number, listed: number, gap: boolean): Outcome {
    this.shownVersion = shown;
    this.listedVersion = listed;
    return { apply: true, gap };
  }
}

function isVersion(version: number | undefined): version is number {
  return typeof version === 'number' && Number.isSafeInteger(version);
}
