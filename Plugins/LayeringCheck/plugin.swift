import PackagePlugin
@main struct LayeringCheck: CommandPlugin { func performCommand(context: PluginContext, arguments: [String]) throws {} }
