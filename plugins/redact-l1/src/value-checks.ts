import { isPlaceholder } from './allow-list.js';
import { entropy, Kind, kindCount, kindsOf } from './entropy.js';

/**
 * `config.db.password`, `self.token`, `e.password||""`: a path through objects (maybe followed by an
 * operator), not a literal.
 */
const MEMBER_PATH = /^[A-Za-z_$][A-Za-z_$]*(?:(?:\.|\?\.|->|::)[A-Za-z_$][A-Za-z_$]*)+(?:$|\|\||&&|\?|[;,)}\]([])/;
/** Unquoted, a path's parts may be words with digits (`ed25519.Ed25519PrivateKey`), not random runs. */
const MEMBER_PATH_UNQUOTED = /^[A-Za-z_$][\w$]*(?:(?:\.|\?\.|->|::)[A-Za-z_$][\w$]*)+(?=$|\|\||&&|\?|[;,)}\]([])/;
/** One identifier as people write them: `ed25519`, `Ed25519PrivateKey`, `SOME_NAME`, never `AJUbZ20k1n`. */
const WORD_LIKE = /^(?:[A-Z_$]+\d*|[A-Za-z_$][a-z_$]*\d*(?:[A-Z][a-z_$]*\d*)*)$/;

/** True when every part of a key or path is an identifier as people write them (see `WORD_LIKE`). */
export function isWordLike(name: string): boolean {
  return name.split(/[-_. ]+/).every((part) => part === '' || WORD_LIKE.test(part));
}

/** True for an unquoted path whose every part is word-like (`E4.AJUbZ20k1n` is a password, not a path). */
function isUnquotedMemberPath(value: string): boolean {
  const path = MEMBER_PATH_UNQUOTED.exec(value);
  return path !== null && path[0].split(/\?\.|\.|->|::/).every((part) => WORD_LIKE.test(part));
}

/** A call, a subscript, a literal that opens a structure, a role (`:py:data:`) or a comment: code, not a value. */
const CODE_SHAPE = /^[A-Za-z_$][\w$.?]*[([]|^[([{!&|:]|^\/\*|^\/\/\s/;
/** URLs and versions are never credentials themselves (URL credentials have their own rule). */
const URL_OR_VERSION = /^[a-z][a-z0-9+.-]*:\/\/|^v?\d+(?:\.\d+)+$/i;
const PATH = /^(?:\/|\.{1,2}\/|~\/)[\w./-]*$/;
/**
 * Password hashes (bcrypt, argon2, scrypt, PBKDF2, crypt): sensitive, but they open nothing on their
 * own, and seed files and fixtures are full of them.
 */
const PASSWORD_HASH = /^\$(?:2[abxy]?|argon2(?:id|i|d)|scrypt|pbkdf2[-\w]*|[156])\$/;

/**
 * True for URLs, versions, password hashes and file paths. A base64 secret may start with `/` too, so
 * a path must also read like one: random base64 has about 5 bits of entropy per character, a path 4.
 */
function notACredential(value: string): boolean {
  return URL_OR_VERSION.test(value) || PASSWORD_HASH.test(value) || (PATH.test(value) && entropy(value) < 4.3);
}

/**
 * True when `value` reads as code or a reference rather than a literal secret. A quoted value is a
 * string literal, so only a member path (`"config.db.password"`, a lookup key) counts there.
 */
export function looksLikeCode(value: string, quoted = false): boolean {
  return quoted ? MEMBER_PATH.test(value) : isUnquotedMemberPath(value) || CODE_SHAPE.test(value);
}

/**
 * True when every part of `value` between `-`, `_`, `.`, `/` or `:` is a plain word or a short number
 * (`db-credentials-prod`, `my_app.secret`): names of secrets, not secrets.
 */
export function isWordy(value: string): boolean {
  const parts = value.split(/[-_./:]+/).filter((p) => p.length > 0);
  return parts.length >= 2 && parts.every((p) => /^(?:[a-z]+|[A-Z]+|[A-Z][a-z]+)$/.test(p) || /^\d{1,4}$/.test(p));
}

/**
 * True when a value assigned to a password key looks like a real password. Unquoted values must hold a
 * digit or a symbol, because a bare word there is far more often an identifier (`password: str`).
 * `spaces` admits passwords with spaces, where the syntax delimits them (`Password=my pass;`).
 */
export function passwordLike(value: string, quoted: boolean, spaces = false): boolean {
  if (value.length < 6 || value.length > 128 || (!spaces && /\s/.test(value))) return false;
  if (isPlaceholder(value) || looksLikeCode(value, quoted) || notACredential(value)) return false;
  // Unquoted `password_mgr`, `db-password`: names, not passwords (a passphrase has capitals or digits).
  if (!quoted && /^[a-z]+(?:[-_.][a-z]+)+$/.test(value)) return false;
  const kinds = kindsOf(value);
  if (kinds === Kind.digit) return false;
  if ((kinds & (Kind.digit | Kind.symbol)) !== 0) return kindCount(kinds) >= 2;
  return quoted && kinds === (Kind.lower | Kind.upper) && value.length >= 12 && !isCamelWords(value) && entropy(value) >= 3.2;
}

const PRINTABLE_ASCII = /^[\x21-\x7e]+$/;

/**
 * True for identifiers made of words (`userToken`, `kEnumerableProperty`, `?NonExpressionParen`): letters
 * only, once symbols at the ends are set aside, in camel-case parts of three letters on average. Random
 * mixed-case letters change case about every other character.
 */
export function isCamelWords(value: string): boolean {
  const core = value.replace(/^[^A-Za-z]+|[^A-Za-z]+$/g, '');
  if (!/^[A-Za-z]+$/.test(core)) return false;
  const parts = core.split(/(?=[A-Z])/);
  return core.length / parts.length >= 3;
}

/**
 * True when a value assigned to a token, key or secret looks random enough to be one: at least
 * `minLength` characters, no spaces, not made of words, about 3 bits of entropy per character or more,
 * and a digit or mixed case. Camel-case words are identifiers (`token = userToken`), not secrets.
 */
export function secretLike(value: string, minLength = 16): boolean {
  // API secrets are printable ASCII; anything else is text (a translated message, a name).
  if (value.length < minLength || value.length > 1024 || !PRINTABLE_ASCII.test(value)) return false;
  if (isPlaceholder(value) || looksLikeCode(value) || isWordy(value) || notACredential(value)) return false;
  const kinds = kindsOf(value);
  const mixedCase = (kinds & (Kind.lower | Kind.upper)) === (Kind.lower | Kind.upper);
  if (kinds === Kind.digit || ((kinds & Kind.digit) === 0 && !mixedCase)) return false;
  if (isCamelWords(value)) return false;
  return entropy(value) >= 3;
}
