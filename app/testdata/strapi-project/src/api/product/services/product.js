'use strict';
const { factories } = require('@strapi/strapi');

module.exports = factories.createCoreService('api::product.product', ({ strapi }) => ({
  async find(params) {
    const result = await super.find(params);
    return { ...result, extra: true };
  },
}));
