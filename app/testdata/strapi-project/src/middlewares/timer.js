module.exports = () => async (ctx, next) => next();
