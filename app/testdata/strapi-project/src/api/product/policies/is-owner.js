module.exports = (ctx) => true;
