import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  AdminConfigPaths,
  CandlePage,
  CandlesQuery,
  ConfigMarket,
  ConfigMarketBody,
  Deal,
  DealQuery,
  Empty,
  FavouriteBody,
  MarketTickerList,
  Ok,
  Paths,
} from '@verdant/api';
import type { FastifyInstance } from 'fastify';
import { optionalUser, requireUser, userId } from '../../http/auth.ts';
import { ok } from '../../http/envelope.ts';
import { CONFIG_ROLES, operatorOf, requireOperator } from '../admin/service.ts';
import { marketConfig } from './config.ts';

const tags = ['market'];
const secured = [{ session: [] }];
const sessionOptional: Record<string, string[]>[] = [{}, { session: [] }];

export default async function marketRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const market = app.market;
  const auth = requireUser(app);
  const maybeUser = optionalUser(app);
  const operator = requireOperator(app, CONFIG_ROLES);
  const config = marketConfig(app.ctx);

  app.get(`/${AdminConfigPaths.markets}`, {
    preHandler: operator,
    schema: {
      tags: ['admin'],
      summary: 'Operators (admin): spot markets with their tick, lot, minimum order value and fees',
      security: secured,
      response: { 200: Ok(Type.Array(ConfigMarket)) },
    },
    handler: async (req) => ok(req, await config.list()),
  });

  app.post(`/${AdminConfigPaths.saveMarket}`, {
    preHandler: operator,
    schema: {
      tags: ['admin'],
      summary:
        "Operators (admin): change a spot market's tick, lot, minimum and fees (new orders; resting orders keep theirs); audited",
      security: secured,
      body: ConfigMarketBody,
      response: { 200: Ok(ConfigMarket) },
    },
    handler: async (req) =>
      ok(req, await config.save(operatorOf(req), req.ip, req.body, req.lang), 'config.saved'),
  });

  app.get(`/${Paths.quotations}`, {
    preHandler: maybeUser,
    schema: {
      tags,
      summary: 'Every market with its last price and 24 h change, high, low and volume',
      description: 'Public. With a session, `favourite` marks the user’s favourite markets.',
      security: sessionOptional,
      response: { 200: Ok(MarketTickerList) },
    },
    handler: async (req) => ok(req, await market.quotations(req.user?.id ?? null)),
  });

  app.get(`/${Paths.candles}`, {
    schema: {
      tags,
      summary:
        'Candles of a market for a chart interval (time-share, 1, 5, 30 min, 1 h, 1 day, 1 week, 1 month)',
      description:
        'Oldest first; `before` pages back. The time-share line is the 1-minute candles. ' +
        "Candles marked 'sim' are simulated history back-filled on first start.",
      querystring: CandlesQuery,
      response: { 200: Ok(CandlePage) },
    },
    handler: async (req) => ok(req, await market.candles(req.query)),
  });

  app.get(`/${Paths.deal}`, {
    schema: {
      tags,
      summary: 'Recent trades (newest first) and the depth of the book',
      querystring: DealQuery,
      response: { 200: Ok(Deal) },
    },
    handler: async (req) => ok(req, await market.deal(req.query)),
  });

  app.get(`/${Paths.favourites}`, {
    preHandler: maybeUser,
    schema: {
      tags,
      summary: 'The user’s favourite markets with their tickers (empty for visitors)',
      security: sessionOptional,
      response: { 200: Ok(MarketTickerList) },
    },
    handler: async (req) => ok(req, await market.favourites(req.user?.id ?? null)),
  });

  app.post(`/${Paths.addFavourite}`, {
    preHandler: auth,
    schema: {
      tags,
      summary: 'Add a market to the user’s favourites (adding it twice is fine)',
      security: secured,
      body: FavouriteBody,
      response: { 200: Ok(Empty) },
    },
    handler: async (req) => {
      await market.addFavourite(userId(req), req.body.symbol);
      return ok(req, null, 'market.favouriteAdded');
    },
  });

  app.post(`/${Paths.removeFavourite}`, {
    preHandler: auth,
    schema: {
      tags,
      summary: 'Remove a market from the user’s favourites',
      security: secured,
      body: FavouriteBody,
      response: { 200: Ok(Empty) },
    },
    handler: async (req) => {
      await market.removeFavourite(userId(req), req.body.symbol);
      return ok(req, null, 'market.favouriteRemoved');
    },
  });
}
