/**
 * A fluent builder for writing RCML in code:
 *
 * ```ts
 * const r = new VoiceResponse();
 * r.say({ voice: 'woman' }, 'Hello');
 * r.gather({ numDigits: 1, action: '/menu' }).say('Press 1');
 * r.dial({ timeout: 20 }).number('+15551234');
 * r.toXml();
 * ```
 *
 * Attribute objects are the model's own fields (see `model.ts`), so the types reject a misspelt
 * attribute or a value out of its set, and nesting is typed: a Gather only nests Say, Play and
 * Pause, and Dial nouns exist only on a Dial. Values are not range-checked here; `parseRcml` of
 * the built XML reports them as it would for any document.
 */
import { type BuildOptions, buildRcml } from './build.js';
import type {
  ClientNoun,
  ConferenceNoun,
  Dial,
  DialNoun,
  Email,
  Enqueue,
  Fax,
  Gather,
  GatherPrompt,
  NumberNoun,
  Pause,
  Play,
  QueueNoun,
  RcmlDocument,
  Record as RecordVerb,
  Redirect,
  Reject,
  Say,
  SipNoun,
  Sms,
  UnknownVerb,
  Verb,
} from './model.js';
import { textTarget } from './verbs/dial.js';

/** Attributes of `<Say>`. */
export type SayAttributes = Omit<Say, 'verb' | 'pos' | 'text'>;
/** Attributes of `<Play>`. */
export type PlayAttributes = Omit<Play, 'verb' | 'pos' | 'url'>;
/** Attributes of `<Pause>`. */
export type PauseAttributes = Omit<Pause, 'verb' | 'pos'>;
/** Attributes of `<Gather>`. */
export type GatherAttributes = Omit<Gather, 'verb' | 'pos' | 'prompts'>;
/** Attributes of `<Record>`. */
export type RecordAttributes = Omit<RecordVerb, 'verb' | 'pos'>;
/** Attributes of `<Dial>`. */
export type DialAttributes = Omit<Dial, 'verb' | 'pos' | 'nouns' | 'fromText'>;
/** Attributes of `<Number>`. */
export type NumberAttributes = Omit<NumberNoun, 'noun' | 'pos' | 'number'>;
/** Attributes of `<Client>`. */
export type ClientAttributes = Omit<ClientNoun, 'noun' | 'pos' | 'name'>;
/** Attributes of `<Sip>`. */
export type SipAttributes = Omit<SipNoun, 'noun' | 'pos' | 'uri'>;
/** Attributes of `<Conference>`. */
export type ConferenceAttributes = Omit<ConferenceNoun, 'noun' | 'pos' | 'name'>;
/** Attributes of `<Queue>`. */
export type QueueAttributes = Omit<QueueNoun, 'noun' | 'pos' | 'name'>;
/** Attributes of `<Enqueue>`. */
export type EnqueueAttributes = Omit<Enqueue, 'verb' | 'pos' | 'name'>;
/** Attributes of `<Redirect>`. */
export type RedirectAttributes = Omit<Redirect, 'verb' | 'pos' | 'url'>;
/** Attributes of `<Reject>`. */
export type RejectAttributes = Omit<Reject, 'verb' | 'pos'>;
/** Attributes of `<Sms>`. */
export type SmsAttributes = Omit<Sms, 'verb' | 'pos' | 'text'>;
/** Attributes of `<Email>`. */
export type EmailAttributes = Omit<Email, 'verb' | 'pos' | 'text'>;
/** Attributes of `<Fax>`. */
export type FaxAttributes = Omit<Fax, 'verb' | 'pos' | 'text'>;

/** Fields an attribute object may not override, whatever an untyped caller passes. */
const RESERVED: ReadonlySet<string> = new Set([
  'verb',
  'noun',
  'pos',
  'text',
  'prompts',
  'nouns',
  'fromText',
]);

/**
 * `head` plus the set attributes. Undefined values are left out so the result equals a
 * hand-written or parsed model, in which an unset attribute is absent.
 */
function node<T>(head: object, attributes: object | undefined, textField?: string): T {
  const out: { [field: string]: unknown } = { ...head };
  if (attributes) {
    for (const [key, value] of Object.entries(attributes)) {
      if (value !== undefined && key !== textField && !RESERVED.has(key)) out[key] = value;
    }
  }
  return out as T;
}

/** Splits the `(text)` / `(attributes, text)` overloads. */
function split<A>(first: A | string | undefined, second: string | undefined): [A | undefined, string] {
  return typeof first === 'string' ? [undefined, first] : [first, second ?? ''];
}

/** The Say, Play and Pause methods, shared by {@link VoiceResponse} and {@link GatherBuilder}. */
export abstract class PromptMethods {
  protected abstract add(prompt: GatherPrompt): void;

  /** Adds `<Say>`: text to speak. */
  say(text: string): this;
  say(attributes: SayAttributes, text: string): this;
  say(first: SayAttributes | string, second?: string): this {
    const [attributes, text] = split(first, second);
    this.add(node<Say>({ verb: 'Say', text }, attributes));
    return this;
  }

  /** Adds `<Play>`: the audio URL. */
  play(url: string): this;
  play(attributes: PlayAttributes, url: string): this;
  play(first: PlayAttributes | string, second?: string): this {
    const [attributes, url] = split(first, second);
    this.add(node<Play>({ verb: 'Play', url }, attributes, 'url'));
    return this;
  }

  /** Adds `<Pause>`. */
  pause(attributes?: PauseAttributes): this {
    this.add(node<Pause>({ verb: 'Pause' }, attributes));
    return this;
  }
}

/** The prompts of one `<Gather>`: only Say, Play and Pause. */
export class GatherBuilder extends PromptMethods {
  /** @param verb The Gather in the response, filled in place. */
  constructor(private readonly verb: Gather) {
    super();
  }

  protected add(prompt: GatherPrompt): void {
    this.verb.prompts.push(prompt);
  }
}

/** The nouns of one `<Dial>`. Each method adds a noun and returns the same builder. */
export class DialBuilder {
  /** @param verb The Dial in the response, filled in place. */
  constructor(private readonly verb: Dial) {}

  private add(noun: DialNoun): this {
    // A text target only stays text while it is the Dial's only noun.
    delete this.verb.fromText;
    this.verb.nouns.push(noun);
    return this;
  }

  /** Adds `<Number>`: a phone number. */
  number(number: string): this;
  number(attributes: NumberAttributes, number: string): this;
  number(first: NumberAttributes | string, second?: string): this {
    const [attributes, number] = split(first, second);
    return this.add(node<NumberNoun>({ noun: 'Number', number }, attributes, 'number'));
  }

  /** Adds `<Client>`: a client name. */
  client(name: string): this;
  client(attributes: ClientAttributes, name: string): this;
  client(first: ClientAttributes | string, second?: string): this {
    const [attributes, name] = split(first, second);
    return this.add(node<ClientNoun>({ noun: 'Client', name }, attributes, 'name'));
  }

  /** Adds `<Sip>`: a SIP URI. */
  sip(uri: string): this;
  sip(attributes: SipAttributes, uri: string): this;
  sip(first: SipAttributes | string, second?: string): this {
    const [attributes, uri] = split(first, second);
    return this.add(node<SipNoun>({ noun: 'Sip', uri }, attributes, 'uri'));
  }

  /** Adds `<Conference>`: a conference room name. */
  conference(name: string): this;
  conference(attributes: ConferenceAttributes, name: string): this;
  conference(first: ConferenceAttributes | string, second?: string): this {
    const [attributes, name] = split(first, second);
    return this.add(node<ConferenceNoun>({ noun: 'Conference', name }, attributes, 'name'));
  }

  /** Adds `<Queue>`: the queue to take a caller from. */
  queue(name: string): this;
  queue(attributes: QueueAttributes, name: string): this;
  queue(first: QueueAttributes | string, second?: string): this {
    const [attributes, name] = split(first, second);
    return this.add(node<QueueNoun>({ noun: 'Queue', name }, attributes, 'name'));
  }
}

/**
 * An RCML `<Response>` built verb by verb. Verbs without children return the response, so calls
 * chain; `gather` and `dial` return a builder for their children.
 */
export class VoiceResponse extends PromptMethods {
  private readonly verbs: Verb[] = [];

  protected add(verb: Verb): void {
    this.verbs.push(verb);
  }

  /** Adds `<Gather>` and returns its prompt builder. */
  gather(attributes?: GatherAttributes): GatherBuilder {
    const verb = node<Gather>({ verb: 'Gather' }, attributes);
    verb.prompts = [];
    this.add(verb);
    return new GatherBuilder(verb);
  }

  /** Adds `<Record>`. */
  record(attributes?: RecordAttributes): this {
    this.add(node<RecordVerb>({ verb: 'Record' }, attributes));
    return this;
  }

  /**
   * Adds `<Dial>` and returns its noun builder. A `target` is written as Dial text
   * (`+15551234`, `client:alice`, `sip:bob@example.com`), as the parser reads it.
   */
  dial(target?: string): DialBuilder;
  dial(attributes: DialAttributes, target?: string): DialBuilder;
  dial(first?: DialAttributes | string, second?: string): DialBuilder {
    const [attributes, target] = typeof first === 'string' ? [undefined, first] : [first, second];
    const verb = node<Dial>({ verb: 'Dial' }, attributes);
    verb.nouns = target === undefined ? [] : [textTarget(target)];
    if (target !== undefined) verb.fromText = true;
    this.add(verb);
    return new DialBuilder(verb);
  }

  /** Adds `<Enqueue>`: the queue to wait in. */
  enqueue(name: string): this;
  enqueue(attributes: EnqueueAttributes, name: string): this;
  enqueue(first: EnqueueAttributes | string, second?: string): this {
    const [attributes, name] = split(first, second);
    this.add(node<Enqueue>({ verb: 'Enqueue', name }, attributes, 'name'));
    return this;
  }

  /** Adds `<Redirect>`: the next document's URL. */
  redirect(url: string): this;
  redirect(attributes: RedirectAttributes, url: string): this;
  redirect(first: RedirectAttributes | string, second?: string): this {
    const [attributes, url] = split(first, second);
    this.add(node<Redirect>({ verb: 'Redirect', url }, attributes, 'url'));
    return this;
  }

  /** Adds `<Reject>`. */
  reject(attributes?: RejectAttributes): this {
    this.add(node<Reject>({ verb: 'Reject' }, attributes));
    return this;
  }

  /** Adds `<Sms>`: the message body. */
  sms(text: string): this;
  sms(attributes: SmsAttributes, text: string): this;
  sms(first: SmsAttributes | string, second?: string): this {
    const [attributes, text] = split(first, second);
    this.add(node<Sms>({ verb: 'Sms', text }, attributes));
    return this;
  }

  /** Adds `<Email>`: the message body. */
  email(text: string): this;
  email(attributes: EmailAttributes, text: string): this;
  email(first: EmailAttributes | string, second?: string): this {
    const [attributes, text] = split(first, second);
    this.add(node<Email>({ verb: 'Email', text }, attributes));
    return this;
  }

  /** Adds `<Fax>`: the document's URL. */
  fax(url: string): this;
  fax(attributes: FaxAttributes, url: string): this;
  fax(first: FaxAttributes | string, second?: string): this {
    const [attributes, text] = split(first, second);
    this.add(node<Fax>({ verb: 'Fax', text }, attributes));
    return this;
  }

  /** Adds `<Leave>`: leaves the queue. */
  leave(): this {
    this.add({ verb: 'Leave' });
    return this;
  }

  /** Adds `<Hold>`. */
  hold(): this {
    this.add({ verb: 'Hold' });
    return this;
  }

  /** Adds `<Resume>`. */
  resume(): this {
    this.add({ verb: 'Resume' });
    return this;
  }

  /** Adds `<Hangup>`. */
  hangup(): this {
    this.add({ verb: 'Hangup' });
    return this;
  }

  /**
   * Escape hatch: adds any element as written, for verbs (or attributes of a verb) this builder
   * does not know: `element('Say', { voice: 'alice', rate: '90%' }, 'Hi')`. Names must be XML
   * names; the value is escaped. `children` nest further elements.
   */
  element(
    name: string,
    attributes: { [name: string]: string } = {},
    text = '',
    children?: UnknownVerb[],
  ): this {
    const verb: UnknownVerb = { verb: 'Unknown', name, attributes: { ...attributes }, text };
    if (children?.length) verb.children = structuredClone(children);
    this.add(verb);
    return this;
  }

  /** The document built so far, as a copy: later calls do not change it. */
  toDocument(): RcmlDocument {
    return { verbs: structuredClone(this.verbs) };
  }

  /** The document as XML, with {@link buildRcml} (pretty unless `{ pretty: false }`). */
  toXml(options?: BuildOptions): string {
    return buildRcml({ verbs: this.verbs }, options);
  }

  /** Same as {@link VoiceResponse.toXml}. */
  override toString(): string {
    return this.toXml();
  }
}
