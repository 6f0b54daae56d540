import { Type } from 'typebox';
import { JSONDocument } from '../content/schemas.ts';
import { SiteSearchScope } from '../search/schemas.ts';

/*
 * The official shapes of Ask (0.202.0): SearchAIQuery, SearchAIAnswer with its page sources,
 * SearchAIAnswerStream and the recommended questions.
 */

export const SearchAIQuery = Type.Object(
  {
    query: Type.String({ minLength: 1, maxLength: 512, description: 'The question' }),
    previousQueries: Type.Optional(Type.Array(Type.String({ maxLength: 512 }), { maxItems: 10, deprecated: true, description: 'Questions asked before in the same conversation' })),
  },
  { $id: 'SearchAIQuery' },
);

export const AskQuery = Type.Object({
  format: Type.Optional(Type.Union([Type.Literal('document'), Type.Literal('markdown')], { description: 'Output format for the content (the answer is a document either way)' })),
  details: Type.Optional(Type.Boolean({ description: 'Return query details in the result' })),
});

export const StreamAskQuery = Type.Object({
  query: Type.String({ minLength: 1, maxLength: 512, description: 'The question' }),
  format: AskQuery.properties.format,
  details: AskQuery.properties.details,
});

export const SearchAIAnswerSourcePage = Type.Object(
  {
    type: Type.Literal('page'),
    reason: Type.Optional(Type.String()),
    page: Type.String({ description: 'The page ID of the source' }),
    revision: Type.String({ description: 'The revision ID where the page was extracted from' }),
    space: Type.String({ description: 'The space ID owning the page' }),
    sections: Type.Array(Type.String(), { description: 'The IDs (anchors) of the sections of the page used to answer' }),
  },
  { $id: 'SearchAIAnswerSourcePage' },
);

export const SearchAIAnswer = Type.Object(
  {
    answer: Type.Optional(JSONDocument),
    followupQuestions: Type.Array(Type.String()),
    sources: Type.Array(SearchAIAnswerSourcePage, { description: 'The sources used to generate the answer' }),
  },
  { $id: 'SearchAIAnswer' },
);

export const AskAnswer = Type.Object({ answer: Type.Optional(SearchAIAnswer) });

export const SearchAIAnswerStream = Type.Object({ type: Type.Literal('answer'), answer: SearchAIAnswer }, { $id: 'SearchAIAnswerStream' });

/** Whether this server answers questions at all (x-quire-extension): the app's screens say so rather than offer Ask in vain. */
export const AskAvailability = Type.Object(
  {
    available: Type.Boolean({ description: 'A model is configured (AI_PROVIDER_URL and AI_CHAT_MODEL): Ask answers' }),
    byMeaning: Type.Boolean({ description: 'An embedding model is configured (AI_EMBEDDING_MODEL): retrieval also ranks sections by meaning' }),
    message: Type.Optional(Type.String({ description: 'Why Ask is off, when it is' })),
  },
  { $id: 'AskAvailability' },
);

export const SearchAIRecommendedQuestions = Type.Object({ questions: Type.Array(Type.String()) }, { $id: 'SearchAIRecommendedQuestions' });

export const SearchAIRecommendedQuestionStream = Type.Object({ question: Type.String() }, { $id: 'SearchAIRecommendedQuestionStream' });

/** streamAskInSite's body: the question, the site's scope it is asked in, what the asker is doing. */
export const SiteAskBody = Type.Object({
  question: Type.String({ minLength: 1, maxLength: 512 }),
  scope: SiteSearchScope,
  context: Type.Optional(
    Type.Object({
      siteSpaceId: Type.Optional(Type.String()),
      goal: Type.Optional(Type.String({ maxLength: 1024, description: 'The end goal the asker works towards' })),
    }),
  ),
  session: Type.Optional(Type.Object({ visitorId: Type.String(), sessionId: Type.String() })),
});

export const SiteRecommendedQuestionsQuery = Type.Object({
  siteSpaceId: Type.Optional(Type.String({ description: 'The site-space the questions are for' })),
  spaceId: Type.Optional(Type.String({ deprecated: true, description: 'The space the questions are for' })),
});

/** SiteAgentSettingsInput (0.202.0): topic scans, finding change requests, and the custom instructions answers follow. */
export const SiteAgentSettingsInput = Type.Object(
  {
    scans: Type.Object({ topics: Type.Union([Type.Literal('auto'), Type.Literal('never')], { description: 'Quire scans no topics: only "never" is accepted' }) }),
    findings: Type.Object({
      changeRequests: Type.Union([Type.Literal('always'), Type.Literal('auto-fixable'), Type.Literal('never')], { description: 'Quire opens no change requests for findings: only "never" is accepted' }),
    }),
    editing: Type.Object({ customInstructions: JSONDocument }),
  },
  { $id: 'SiteAgentSettingsInput' },
);

export const SiteAgentSettings = Type.Intersect(
  [
    Type.Object({
      object: Type.Literal('site-agent-settings'),
      updatedAt: Type.Optional(Type.String({ format: 'date-time' })),
      updatedBy: Type.Optional(Type.String({ description: 'The member who last changed them' })),
      urls: Type.Object({ location: Type.String() }),
    }),
    SiteAgentSettingsInput,
  ],
  { $id: 'SiteAgentSettings' },
);

/** submitSiteAgentFeedback's body: what an agent found wrong with a page of the site. */
export const SiteAgentFeedbackBody = Type.Object({
  feedback: Type.String({ minLength: 1, maxLength: 2048, description: 'The feedback about the content of the site' }),
  goal: Type.Optional(Type.String({ maxLength: 1024, description: 'The end goal the agent works towards' })),
  url: Type.String({ format: 'uri', maxLength: 2048, description: 'URL of the content the feedback is about' }),
  spaceId: Type.String({ minLength: 1 }),
  pageId: Type.String({ minLength: 1 }),
  source: Type.Optional(Type.Union([Type.Literal('mcp'), Type.Literal('assistant')], { description: 'Surface the feedback was submitted from' })),
});
