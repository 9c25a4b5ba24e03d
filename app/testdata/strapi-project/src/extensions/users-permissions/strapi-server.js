module.exports = (plugin) => {
  plugin.controllers.user.me = async (ctx) => { ctx.body = ctx.state.user; };
  return plugin;
};
