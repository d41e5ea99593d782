/**
 * How sure a rule is of the class it names. When two findings overlap, the merged span takes the class
 * of the surer one: a `ghp_` prefix says more than the `token=` it was assigned to.
 */
export const Priority = {
  /** A keyword assignment judged by its value's shape alone. */
  generic: 1,
  /** Known structure around the value: a URL's userinfo, a connection string, a decoded wrapper. */
  structural: 2,
  /** A vendor's documented format: prefix, length and alphabet. */
  vendor: 3,
} as const;

/** One detected secret, in the coordinates of the text it was found in. */
export interface Candidate {
  readonly class: string;
  readonly start: number;
  readonly end: number;
  readonly priority: number;
  /** The secret as its consumer would use it, when the text held it encoded (base64, escapes). */
  readonly decoded?: string;
}

/** What a rule sees while the scanner walks one text. */
export interface Scan {
  readonly text: string;
  /** True inside a decoded wrapper (base64 of basic auth, a Kubernetes value): wrappers do not nest. */
  readonly nested: boolean;
  add(candidate: Candidate): void;
  /** Scans a decoded value (nested), for the class of what it holds. */
  inner(text: string): readonly Candidate[];
}

/**
 * A rule, run where the prefilter found one of its anchors at `[start, end)`. It may return the
 * position the scan should resume from, to step over a block it consumed (a PEM key's body).
 */
export type Handler = (scan: Scan, start: number, end: number) => number | void;

/** A rule and the anchors that wake it. */
export interface Rule {
  /** Literals matched exactly (vendor prefixes: `AKIA`, `ghp_`, `-----BEGIN`). */
  readonly anchors?: readonly string[];
  /** Lowercase literals matched in any case (`password`, `api_key`, `bearer `). */
  readonly keywords?: readonly string[];
  readonly handle: Handler;
}
