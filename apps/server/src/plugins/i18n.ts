import fp from 'fastify-plugin';
import { pickLanguage, translate, type Language } from '@healthbook/shared';
import type { Vars } from '../lib/http-errors';

declare module 'fastify' {
  interface FastifyRequest {
    /** The answer language, from Accept-Language (en when none is supported). */
    lang: Language;
    t(key: string, vars?: Vars): string;
  }
}

export default fp(
  async (app) => {
    app.decorateRequest('lang', 'en');
    app.decorateRequest('t', function (this: { lang: Language }, key: string, vars?: Vars) {
      return translate(this.lang, key, vars);
    });
    // Clients send a handful of distinct headers: remember their answers (bounded).
    const cache = new Map<string, Language>();
    app.addHook('onRequest', (request, reply, done) => {
      const header = request.headers['accept-language'] ?? '';
      let lang = cache.get(header);
      if (lang === undefined) {
        lang = pickLanguage(header);
        if (cache.size >= 256) cache.clear();
        cache.set(header, lang);
      }
      request.lang = lang;
      reply.header('Content-Language', lang);
      done();
    });
  },
  { name: 'i18n' },
);
