import type { TSchema } from 'typebox';
import type { App } from '../../platform/app-type.ts';
import { apiOperation, registerOperations } from '../../platform/api-operation.ts';
import { callerOf } from '../../platform/auth.ts';
import { sendEventStream } from '../../platform/event-stream.ts';
import { errors, OrganizationIdParams } from '../../platform/schemas.ts';
import { AskAnswer, AskAvailability, AskQuery, SearchAIAnswerStream, SearchAIQuery, SearchAIRecommendedQuestions, SearchAIRecommendedQuestionStream, SiteAskBody, SiteRecommendedQuestionsQuery, StreamAskQuery } from './schemas.ts';
import type { Static } from 'typebox';
import { askAvailability, organizationScope, prepareOrganizationAnswer, prepareSiteAnswer, recommendedQuestions, siteRecommendedQuestions, wholeAnswer, type PreparedAnswer } from './service.ts';
import { SiteIdParams } from '../sites/schemas.ts';
import { recordedAnswers } from '../site-questions/service.ts';
import { newId } from '../../platform/ids.ts';

/** A 200 answered as server-sent events, each event's data of this schema (as the official spec documents it). */
function eventStream(schema: TSchema) {
  return { description: 'Server-sent events, each a JSON value; `event: done` ends the stream, `event: error` reports a failure', content: { 'text/event-stream': { schema } } };
}

/** The events of a streamed answer: each the whole answer so far (SearchAIAnswerStream). */
const answerEvents = (answers: PreparedAnswer['answers']) =>
  async function* (signal: AbortSignal) {
    for await (const answer of answers(signal)) yield { type: 'answer', answer };
  };

/** The events of streamed recommended questions, one per question (SearchAIRecommendedQuestionStream). */
const questionEvents = (questions: readonly string[]) =>
  async function* () {
    for (const question of questions) yield { question };
  };

export async function askRoutes(app: App) {
  registerOperations(app, ['organizations'], [
    apiOperation({
      method: 'POST',
      url: '/orgs/:organizationId/ask',
      operationId: 'askInOrganization',
      summary: 'Ask a question of the docs the caller can read in the organization: an answer written by the configured model from them, with its sources',
      params: OrganizationIdParams,
      querystring: AskQuery,
      body: SearchAIQuery,
      response: AskAnswer,
      errors: [400, 401, 404, 502, 504],
      run: async (ctx, caller, { params, body }) => ({ answer: await wholeAnswer(await prepareOrganizationAnswer(ctx, caller, params.organizationId, body.query, body.previousQueries)) }),
    }),
    apiOperation({
      method: 'GET',
      url: '/orgs/:organizationId/ask/availability',
      operationId: 'getAskAvailability',
      documentation: { 'x-quire-extension': true },
      summary: 'Whether this server answers questions (a model is configured), so that a screen can say so',
      params: OrganizationIdParams,
      response: AskAvailability,
      errors: [401, 404],
      run: (ctx, caller, { params }) => askAvailability(ctx, caller, params.organizationId),
    }),
    apiOperation({
      method: 'GET',
      url: '/orgs/:organizationId/ask/questions',
      operationId: 'getRecommendedQuestionsInOrganization',
      summary: "Questions a reader could ask, which the organization's docs the caller can read answer",
      params: OrganizationIdParams,
      response: SearchAIRecommendedQuestions,
      errors: [400, 401, 404, 502, 504],
      run: async (ctx, caller, { params }) => ({ questions: await recommendedQuestions(ctx, await organizationScope(ctx, caller, params.organizationId)) }),
    }),
  ]);

  app.route({
    method: 'GET',
    url: '/orgs/:organizationId/ask/stream',
    schema: {
      operationId: 'streamAskInOrganization',
      tags: ['organizations'],
      summary: 'askInOrganization, streamed: each event holds the whole answer so far',
      params: OrganizationIdParams,
      querystring: StreamAskQuery,
      response: { 200: eventStream(SearchAIAnswerStream), ...errors(400, 401, 404) },
    },
    handler: async (request, reply) => {
      const { organizationId } = request.params as { organizationId: string };
      const { query } = request.query as { query: string };
      const prepared = await prepareOrganizationAnswer(app.ctx, callerOf(request), organizationId, query);
      await sendEventStream(request, reply, answerEvents((signal) => prepared.answers(signal)));
    },
  });

  app.route({
    method: 'GET',
    url: '/orgs/:organizationId/ask/questions/stream',
    schema: {
      operationId: 'streamRecommendedQuestionsInOrganization',
      tags: ['organizations'],
      summary: 'getRecommendedQuestionsInOrganization, streamed: an event per question',
      params: OrganizationIdParams,
      response: { 200: eventStream(SearchAIRecommendedQuestionStream), ...errors(400, 401, 404, 502, 504) },
    },
    handler: async (request, reply) => {
      const { organizationId } = request.params as { organizationId: string };
      // Computed before the stream opens (one call to the model): a failure is an ordinary error answer.
      const questions = await recommendedQuestions(app.ctx, await organizationScope(app.ctx, callerOf(request), organizationId));
      await sendEventStream(request, reply, questionEvents(questions));
    },
  });

  app.route({
    method: 'POST',
    url: '/orgs/:organizationId/sites/:siteId/ask',
    schema: {
      operationId: 'streamAskInSite',
      tags: ['sites'],
      summary: "Ask a question in a scope of a site, answered from the site-spaces the caller can read, streamed: each event holds the whole answer so far",
      params: SiteIdParams,
      querystring: AskQuery,
      body: SiteAskBody,
      response: { 200: eventStream(SearchAIAnswerStream), ...errors(400, 401, 404) },
    },
    handler: async (request, reply) => {
      const { organizationId, siteId } = request.params as { organizationId: string; siteId: string };
      const body = request.body as Static<typeof SiteAskBody>;
      const { site, prepared } = await prepareSiteAnswer(app.ctx, callerOf(request), organizationId, siteId, body);
      // Kept among what readers asked the site (site-questions), as asked through the API.
      const answers = recordedAnswers(app.ctx, { site, channel: 'api', question: body.question }, newId(), prepared, (error) => request.log.error({ err: error }, 'an answer of streamAskInSite was not kept'));
      await sendEventStream(request, reply, answerEvents(answers));
    },
  });

  app.route({
    method: 'GET',
    url: '/orgs/:organizationId/sites/:siteId/ask/questions',
    schema: {
      operationId: 'streamRecommendedQuestionsInSite',
      tags: ['sites'],
      summary: "Questions a reader could ask, which the site's default content (or one site-space) answers, streamed: an event per question",
      params: SiteIdParams,
      querystring: SiteRecommendedQuestionsQuery,
      response: { 200: eventStream(SearchAIRecommendedQuestionStream), ...errors(400, 401, 404, 502, 504) },
    },
    handler: async (request, reply) => {
      const { organizationId, siteId } = request.params as { organizationId: string; siteId: string };
      const { siteSpaceId } = request.query as Static<typeof SiteRecommendedQuestionsQuery>;
      // Computed before the stream opens: a site Ask is off for, or a site-space not in it, is an ordinary error.
      const questions = await siteRecommendedQuestions(app.ctx, callerOf(request), organizationId, siteId, siteSpaceId);
      await sendEventStream(request, reply, questionEvents(questions));
    },
  });
}
