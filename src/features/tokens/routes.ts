import type { App } from '../../platform/app-type.ts';
import { apiOperation, registerOperations } from '../../platform/api-operation.ts';
import { CreatedPersonalToken, CreatePersonalTokenBody, PersonalTokenList, TokenIdParams } from './schemas.ts';
import { createOwnToken, deleteOwnToken, listOwnTokens } from './service.ts';

const documentation = { 'x-quire-extension': true };

/** A person's own API tokens (the official API has no operation for them): what the app's settings show. */
export async function personalTokenRoutes(app: App) {
  registerOperations(app, ['user-tokens'], [
    apiOperation({
      method: 'GET',
      url: '/user/tokens',
      operationId: 'listUserTokens',
      summary: 'Your personal API tokens that still work',
      documentation,
      response: PersonalTokenList,
      errors: [401, 403],
      run: (ctx, caller) => listOwnTokens(ctx, caller),
    }),
    apiOperation({
      method: 'POST',
      url: '/user/tokens',
      operationId: 'createUserToken',
      summary: 'Create a personal API token (its value is shown only in this answer)',
      documentation,
      body: CreatePersonalTokenBody,
      status: 201,
      response: CreatedPersonalToken,
      errors: [400, 401, 403],
      run: (ctx, caller, { body }) => createOwnToken(ctx, caller, body),
    }),
    apiOperation({
      method: 'DELETE',
      url: '/user/tokens/:tokenId',
      operationId: 'deleteUserToken',
      summary: 'Revoke one of your personal API tokens',
      documentation,
      params: TokenIdParams,
      status: 204,
      errors: [401, 403, 404],
      run: (ctx, caller, { params }) => deleteOwnToken(ctx, caller, params.tokenId),
    }),
  ]);
}
