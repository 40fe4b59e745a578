// Configuration from env (Function spec.env) and the context object.
const greeting = process.env.GREETING || 'Hello';
const maxItems = parseInt(process.env.MAX_ITEMS || '10', 10);

module.exports = {
  main: function (event, context) {
    return {
      greeting: `${greeting} from ${process.env.FUNC_NAME} in ${process.env.SERVICE_NAMESPACE}`,
      maxItems,
      featureFlag: process.env.FEATURE_NEW_CHECKOUT === 'true',
      missing: process.env.NOT_SET === undefined,
      runtime: process.env.FUNC_RUNTIME,
      funcTimeout: process.env.FUNC_TIMEOUT,
      context: {
        functionName: context['function-name'],
        runtime: context.runtime,
        namespace: context.namespace,
        timeout: context.timeout,
        bodySizeLimit: context['body-size-limit'],
      },
      contextKeys: Object.keys(context).sort(),
    };
  },
};
