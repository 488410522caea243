/**
 * fast-check arbitraries for RCML documents, for property tests of anything that consumes RCML.
 * Every generated document is valid and survives `buildRcml` -> `parseRcml` unchanged (after
 * `withoutPositions`).
 */
import fc from 'fast-check';
import type {
  CallProgressEvent,
  ClientNoun,
  ConferenceNoun,
  Dial,
  DialNoun,
  Email,
  Enqueue,
  Fax,
  Gather,
  GatherPrompt,
  HttpMethod,
  LegNounBase,
  NumberNoun,
  Pause,
  Play,
  QueueNoun,
  RcmlDocument,
  Record,
  Redirect,
  Reject,
  Say,
  SipNoun,
  Sms,
  UnknownVerb,
  Verb,
} from './model.js';

const EXTRA_CHARS = ['é', 'Ω', 'Καλώς', '🎉', '&amp;', '&', '<', '>', '"', "'", ']]>', '&#65;'];

/** Printable text without line breaks or tabs (may start or end with spaces). */
const rawText = fc.string({
  unit: fc.oneof(
    { weight: 8, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }) },
    { weight: 1, arbitrary: fc.constantFrom(...EXTRA_CHARS) },
  ),
  maxLength: 24,
});

/** Element text as the parser returns it: trimmed. */
const text = rawText.map((s) => s.trim());
const requiredText = text.filter((s) => s !== '');
const url = fc.oneof(
  fc.webUrl(),
  fc.constantFrom('/relative/next.xml', 'audio/beep.wav', 'next.xml?a=1&b=2'),
);
const httpMethod = fc.constantFrom<HttpMethod>('GET', 'POST');
const bool = fc.boolean();
const nat = (min: number, max = 100_000) => fc.integer({ min, max });
const opt = { requiredKeys: [] as [] };

/** `<Say>` */
export const arbitrarySay: fc.Arbitrary<Say> = fc
  .record(
    {
      voice: fc.constantFrom('man', 'woman'),
      language: fc.constantFrom('en', 'fr', 'es-ES'),
      loop: nat(0, 10),
    },
    opt,
  )
  .chain((attrs) => text.map((t): Say => ({ verb: 'Say', text: t, ...attrs })));

/** `<Play>` */
export const arbitraryPlay: fc.Arbitrary<Play> = fc
  .tuple(url, fc.record({ loop: nat(0, 10) }, opt))
  .map(([u, attrs]): Play => ({ verb: 'Play', url: u, ...attrs }));

/** `<Pause>` */
export const arbitraryPause: fc.Arbitrary<Pause> = fc
  .record({ length: nat(0, 600) }, opt)
  .map((attrs): Pause => ({ verb: 'Pause', ...attrs }));

/** `<Gather>` with nested prompts. */
export const arbitraryGather: fc.Arbitrary<Gather> = fc
  .tuple(
    fc.record(
      {
        action: url,
        method: httpMethod,
        timeout: nat(1, 600),
        finishOnKey: fc.constantFrom('', '#', '*', '0', '9'),
        numDigits: nat(1, 30),
        input: fc.constantFrom('dtmf', 'speech', 'dtmf speech'),
        language: fc.constantFrom('en-US', 'de-DE'),
        hints: rawText,
        partialResultCallback: url,
        partialResultCallbackMethod: httpMethod,
        actionOnEmptyResult: bool,
      },
      opt,
    ),
    fc.array(fc.oneof<fc.Arbitrary<GatherPrompt>[]>(arbitrarySay, arbitraryPlay, arbitraryPause), {
      maxLength: 3,
    }),
  )
  .map(([attrs, prompts]): Gather => ({ verb: 'Gather', ...attrs, prompts }));

/** `<Record>` */
export const arbitraryRecord: fc.Arbitrary<Record> = fc
  .record(
    {
      action: url,
      method: httpMethod,
      timeout: nat(1, 60),
      finishOnKey: fc.constantFrom('-1', '#', '1234567890*#', '*'),
      maxLength: nat(1, 14_400),
      playBeep: bool,
      transcribe: bool,
      transcribeCallback: url,
      media: fc.constantFrom('audio_only', 'video_only', 'audio_video'),
    },
    opt,
  )
  .map((attrs): Record => ({ verb: 'Record', ...attrs }));

const legAttributes: fc.Arbitrary<Omit<LegNounBase, 'pos'>> = fc.record(
  {
    url,
    method: httpMethod,
    statusCallback: url,
    statusCallbackMethod: httpMethod,
    statusCallbackEvent: fc.subarray<CallProgressEvent>(['initiated', 'ringing', 'answered', 'completed'], {
      minLength: 1,
    }),
  },
  opt,
);

const phoneNumber = fc.stringMatching(/^\+?[0-9]{1,15}$/);
const clientName = fc.stringMatching(/^[a-z][a-z0-9_.-]{0,15}$/);
const sipUri = fc
  .tuple(clientName, fc.domain(), fc.option(fc.stringMatching(/^X-[A-Za-z]{1,8}=[a-z0-9]{1,8}$/)))
  .map(([user, host, header]) => `sip:${user}@${host}${header ? `?${header}` : ''}`);

const numberNoun: fc.Arbitrary<NumberNoun> = fc
  .tuple(phoneNumber, legAttributes, fc.record({ sendDigits: fc.stringMatching(/^[0-9*#w]{1,8}$/) }, opt))
  .map(([number, leg, extra]): NumberNoun => ({ noun: 'Number', number, ...leg, ...extra }));
const clientNoun: fc.Arbitrary<ClientNoun> = fc
  .tuple(clientName, legAttributes)
  .map(([name, leg]): ClientNoun => ({ noun: 'Client', name, ...leg }));
const sipNoun: fc.Arbitrary<SipNoun> = fc
  .tuple(sipUri, legAttributes, fc.record({ username: clientName, password: rawText }, opt))
  .map(([uri, leg, extra]): SipNoun => ({ noun: 'Sip', uri, ...leg, ...extra }));
const conferenceNoun: fc.Arbitrary<ConferenceNoun> = fc
  .tuple(
    requiredText,
    fc.record(
      {
        muted: bool,
        beep: bool,
        startConferenceOnEnter: bool,
        endConferenceOnExit: bool,
        waitUrl: url,
        waitMethod: httpMethod,
        maxParticipants: nat(2, 40),
      },
      opt,
    ),
  )
  .map(([name, attrs]): ConferenceNoun => ({ noun: 'Conference', name, ...attrs }));
const queueAttributes = fc.record(
  {
    url,
    method: httpMethod,
    waitUrl: url,
    waitUrlMethod: httpMethod,
    joinUrl: url,
    joinUrlMethod: httpMethod,
    rejoin: bool,
  },
  opt,
);
const queueNoun: fc.Arbitrary<QueueNoun> = fc
  .tuple(requiredText, queueAttributes)
  .map(([name, attrs]): QueueNoun => ({ noun: 'Queue', name, ...attrs }));

/** Any Dial noun. */
export const arbitraryDialNoun: fc.Arbitrary<DialNoun> = fc.oneof<fc.Arbitrary<DialNoun>[]>(
  numberNoun,
  clientNoun,
  sipNoun,
  conferenceNoun,
  queueNoun,
);

/** A target written as Dial text: a bare number, `client:name` or a SIP URI. */
const textTargetNoun: fc.Arbitrary<DialNoun> = fc.oneof<fc.Arbitrary<DialNoun>[]>(
  phoneNumber.map((number): NumberNoun => ({ noun: 'Number', number })),
  clientName.map((name): ClientNoun => ({ noun: 'Client', name })),
  sipUri.map((uri): SipNoun => ({ noun: 'Sip', uri })),
);

/** `<Dial>` with a text target or one to three nouns. */
export const arbitraryDial: fc.Arbitrary<Dial> = fc
  .tuple(
    fc.record(
      {
        action: url,
        method: httpMethod,
        timeout: nat(1, 120),
        timeLimit: nat(1, 14_400),
        callerId: phoneNumber,
        record: bool,
        hangupOnStar: bool,
      },
      opt,
    ),
    fc.oneof(
      textTargetNoun.map((noun) => ({ nouns: [noun], fromText: true as const })),
      fc.array(arbitraryDialNoun, { minLength: 1, maxLength: 3 }).map((nouns) => ({ nouns })),
    ),
  )
  .map(([attrs, targets]): Dial => ({ verb: 'Dial', ...attrs, ...targets }));

/** `<Enqueue>` */
export const arbitraryEnqueue: fc.Arbitrary<Enqueue> = fc
  .tuple(
    requiredText,
    fc.record(
      {
        action: url,
        method: httpMethod,
        waitUrl: url,
        waitUrlMethod: httpMethod,
        joinUrl: url,
        joinUrlMethod: httpMethod,
        rejoin: bool,
      },
      opt,
    ),
  )
  .map(([name, attrs]): Enqueue => ({ verb: 'Enqueue', name, ...attrs }));

/** `<Redirect>` (always with a URL) */
export const arbitraryRedirect: fc.Arbitrary<Redirect> = fc
  .tuple(url, fc.record({ method: httpMethod }, opt))
  .map(([u, attrs]): Redirect => ({ verb: 'Redirect', url: u, ...attrs }));

/** `<Reject>` */
export const arbitraryReject: fc.Arbitrary<Reject> = fc
  .record({ reason: fc.constantFrom('rejected', 'busy') }, opt)
  .map((attrs): Reject => ({ verb: 'Reject', ...attrs }));

const messageAttributes = fc.record(
  { to: phoneNumber, from: phoneNumber, action: url, method: httpMethod, statusCallback: url },
  opt,
);

/** `<Sms>`, `<Email>` or `<Fax>` */
export const arbitraryMessage: fc.Arbitrary<Sms | Email | Fax> = fc.oneof(
  fc.tuple(requiredText, messageAttributes).map(([t, attrs]): Sms => ({ verb: 'Sms', text: t, ...attrs })),
  fc
    .tuple(requiredText, messageAttributes, fc.record({ subject: rawText, cc: rawText, bcc: rawText }, opt))
    .map(([t, attrs, extra]): Email => ({ verb: 'Email', text: t, ...attrs, ...extra })),
  fc.tuple(url, messageAttributes).map(([t, attrs]): Fax => ({ verb: 'Fax', text: t, ...attrs })),
);

/** An element the language does not define, kept as `Unknown`. */
export const arbitraryUnknownVerb: fc.Arbitrary<UnknownVerb> = fc
  .tuple(
    fc.constantFrom('UssdMessage', 'Video', 'Custom', 'x-thing'),
    fc.dictionary(fc.stringMatching(/^[a-z][a-zA-Z]{0,7}$/), rawText, { maxKeys: 3, noNullPrototype: true }),
    text,
  )
  .map(([name, attributes, t]): UnknownVerb => ({ verb: 'Unknown', name, attributes, text: t }));

/** Any verb, unknown ones included. */
export const arbitraryVerb: fc.Arbitrary<Verb> = fc.oneof<fc.Arbitrary<Verb>[]>(
  arbitrarySay,
  arbitraryPlay,
  arbitraryPause,
  arbitraryGather,
  arbitraryRecord,
  arbitraryDial,
  arbitraryEnqueue,
  fc.constantFrom<Verb>({ verb: 'Leave' }, { verb: 'Hold' }, { verb: 'Resume' }, { verb: 'Hangup' }),
  arbitraryRedirect,
  arbitraryReject,
  arbitraryMessage,
  arbitraryUnknownVerb,
);

/** A valid RCML document of up to `maxVerbs` verbs (default 8). */
export function arbitraryRcmlDocument(options: { maxVerbs?: number } = {}): fc.Arbitrary<RcmlDocument> {
  return fc.array(arbitraryVerb, { maxLength: options.maxVerbs ?? 8 }).map((verbs) => ({ verbs }));
}

/** A deep copy of `value` without the parser's `pos` fields, for comparing documents. */
export function withoutPositions<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutPositions) as T;
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value).filter(([key]) => key !== 'pos');
  return Object.fromEntries(entries.map(([key, inner]) => [key, withoutPositions(inner)])) as T;
}
