import { Type } from 'typebox';
import type { App } from '../../platform/app-type.ts';
import { apiOperation, registerOperations } from '../../platform/api-operation.ts';
import { listOf } from '../../platform/schemas.ts';
import { getSiteAgentSettings, updateSiteAgentSettings } from '../sites/agent-settings.ts';
import { SiteAgentFeedbackBody, SiteAgentSettings, SiteAgentSettingsInput } from '../ask/schemas.ts';
import { SiteIdParams } from '../sites/schemas.ts';
import {
  ListPageQuery,
  SiteQuestion,
  SiteQuestionAnswer,
  SiteQuestionAnswerParams,
  SiteQuestionAnswerSource,
  SiteQuestionAnswersQuery,
  SiteQuestionAnswerWithResponse,
  SiteQuestionParams,
  SiteQuestionQuery,
  SiteQuestionSourcesQuery,
  SiteQuestionsQuery,
  SiteQuestionStats,
  SiteQuestionStatsQuery,
} from './schemas.ts';
import {
  getSiteQuestion,
  getSiteQuestionAnswer,
  getSiteQuestionAnswerThread,
  getSiteQuestionStats,
  listSiteAgentFeedback,
  listSiteQuestionAnswers,
  listSiteQuestionAnswerSources,
  listSiteQuestions,
  listSiteQuestionSources,
  submitAgentFeedback,
} from './service.ts';

const SiteAgentFeedback = Type.Object({
  object: Type.Literal('site-agent-feedback'),
  id: Type.String(),
  feedback: Type.String(),
  goal: Type.Optional(Type.String()),
  url: Type.String(),
  spaceId: Type.String(),
  pageId: Type.String(),
  source: Type.Optional(Type.Union([Type.Literal('mcp'), Type.Literal('assistant')])),
  createdAt: Type.String({ format: 'date-time' }),
});

/**
 * What readers asked a site's Ask and how it answered (for whoever may read the site: its writers), the site's
 * agent settings, and the feedback agents leave about its content.
 */
export async function siteQuestionRoutes(app: App) {
  registerOperations(app, ['site-questions'], [
    apiOperation({
      method: 'GET',
      url: '/orgs/:organizationId/sites/:siteId/questions',
      operationId: 'listSiteQuestions',
      summary: "List the questions readers asked the site's Ask, each with the stats of its answers",
      params: SiteIdParams,
      querystring: SiteQuestionsQuery,
      response: listOf(SiteQuestion),
      errors: [400, 401, 404],
      run: (ctx, caller, { params, query }) => listSiteQuestions(ctx, caller, params.organizationId, params.siteId, query),
    }),
    apiOperation({
      method: 'GET',
      url: '/orgs/:organizationId/sites/:siteId/questions/:siteQuestionId',
      operationId: 'getSiteQuestionById',
      summary: 'Get a question readers asked, with the stats of its answers',
      params: SiteQuestionParams,
      querystring: SiteQuestionQuery,
      response: SiteQuestion,
      errors: [400, 401, 404],
      run: (ctx, caller, { params, query }) => getSiteQuestion(ctx, caller, params.organizationId, params.siteId, params.siteQuestionId, query),
    }),
    apiOperation({
      method: 'GET',
      url: '/orgs/:organizationId/sites/:siteId/questions/:siteQuestionId/sources',
      operationId: 'listSiteQuestionSources',
      summary: "List the pages the answers to a question cited, the most cited first",
      params: SiteQuestionParams,
      querystring: SiteQuestionSourcesQuery,
      response: listOf(SiteQuestionAnswerSource),
      errors: [400, 401, 404],
      run: (ctx, caller, { params, query }) => listSiteQuestionSources(ctx, caller, params.organizationId, params.siteId, params.siteQuestionId, query),
    }),
    apiOperation({
      method: 'GET',
      url: '/orgs/:organizationId/sites/:siteId/question-stats',
      operationId: 'getSiteQuestionStats',
      summary: "Counts of the questions readers asked the site's Ask and of its answers",
      params: SiteIdParams,
      querystring: SiteQuestionStatsQuery,
      response: SiteQuestionStats,
      errors: [400, 401, 404],
      run: (ctx, caller, { params, query }) => getSiteQuestionStats(ctx, caller, params.organizationId, params.siteId, query),
    }),
    apiOperation({
      method: 'GET',
      url: '/orgs/:organizationId/sites/:siteId/answers',
      operationId: 'listSiteQuestionAnswers',
      summary: "List the answers the site's Ask gave, newest first",
      params: SiteIdParams,
      querystring: SiteQuestionAnswersQuery,
      response: listOf(SiteQuestionAnswer),
      errors: [400, 401, 404],
      run: (ctx, caller, { params, query }) => listSiteQuestionAnswers(ctx, caller, params.organizationId, params.siteId, query),
    }),
    apiOperation({
      method: 'GET',
      url: '/orgs/:organizationId/sites/:siteId/answers/:siteQuestionAnswerId',
      operationId: 'getSiteQuestionAnswerById',
      summary: 'Get an answer of the site’s Ask, with what the asker read',
      params: SiteQuestionAnswerParams,
      response: SiteQuestionAnswerWithResponse,
      errors: [401, 404],
      run: (ctx, caller, { params }) => getSiteQuestionAnswer(ctx, caller, params.organizationId, params.siteId, params.siteQuestionAnswerId),
    }),
    apiOperation({
      method: 'GET',
      url: '/orgs/:organizationId/sites/:siteId/answers/:siteQuestionAnswerId/thread',
      operationId: 'getSiteQuestionAnswerThreadById',
      summary: 'Get the conversation an answer belongs to: its first question and every follow-up, in order',
      params: SiteQuestionAnswerParams,
      response: Type.Array(SiteQuestionAnswerWithResponse),
      errors: [401, 404],
      run: (ctx, caller, { params }) => getSiteQuestionAnswerThread(ctx, caller, params.organizationId, params.siteId, params.siteQuestionAnswerId),
    }),
    apiOperation({
      method: 'GET',
      url: '/orgs/:organizationId/sites/:siteId/answers/:siteQuestionAnswerId/sources',
      operationId: 'listSiteQuestionAnswerSources',
      summary: 'List the pages an answer cited, in the order it cited them',
      params: SiteQuestionAnswerParams,
      querystring: ListPageQuery,
      response: listOf(SiteQuestionAnswerSource),
      errors: [400, 401, 404],
      run: (ctx, caller, { params, query }) => listSiteQuestionAnswerSources(ctx, caller, params.organizationId, params.siteId, params.siteQuestionAnswerId, query),
    }),
    apiOperation({
      method: 'GET',
      url: '/orgs/:organizationId/sites/:siteId/agent-feedback',
      operationId: 'listSiteAgentFeedback',
      documentation: { 'x-quire-extension': true },
      summary: 'List the feedback agents left about the site’s content, newest first',
      params: SiteIdParams,
      querystring: ListPageQuery,
      response: listOf(SiteAgentFeedback),
      errors: [400, 401, 404],
      run: (ctx, caller, { params, query }) => listSiteAgentFeedback(ctx, caller, params.organizationId, params.siteId, query),
    }),
  ]);

  registerOperations(app, ['site-insights'], [
    apiOperation({
      method: 'POST',
      url: '/orgs/:organizationId/sites/:siteId/agent-feedback',
      operationId: 'submitSiteAgentFeedback',
      summary: "Leave feedback about a page of the site: what an agent found outdated, wrong or missing",
      params: SiteIdParams,
      body: SiteAgentFeedbackBody,
      status: 204,
      errors: [400, 401, 404],
      run: (ctx, caller, { params, body }) => submitAgentFeedback(ctx, caller, params.organizationId, params.siteId, body),
    }),
  ]);

  registerOperations(app, ['site-agent-settings'], [
    apiOperation({
      method: 'GET',
      url: '/orgs/:organizationId/sites/:siteId/agent-settings',
      operationId: 'getSiteAgentSettingsById',
      summary: "Get the site's agent settings: the custom instructions its Ask answers follow",
      params: SiteIdParams,
      response: SiteAgentSettings,
      errors: [401, 404],
      run: (ctx, caller, { params }) => getSiteAgentSettings(ctx, caller, params.organizationId, params.siteId),
    }),
    apiOperation({
      method: 'PUT',
      url: '/orgs/:organizationId/sites/:siteId/agent-settings',
      operationId: 'updateSiteAgentSettingsById',
      summary: "Replace the site's agent settings (site admins): the custom instructions its Ask answers follow",
      params: SiteIdParams,
      body: SiteAgentSettingsInput,
      response: SiteAgentSettings,
      errors: [400, 401, 403, 404],
      run: (ctx, caller, { params, body }) => updateSiteAgentSettings(ctx, caller, params.organizationId, params.siteId, body),
    }),
  ]);
}
