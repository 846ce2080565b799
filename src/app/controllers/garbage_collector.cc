// The garbage collector as kcm runs it (upstream
// newGarbageCollectorControllerDescriptor / startGarbageCollectorController):
// skipped when --enable-garbage-collector=false. Its graph is served at
// /debug/controllers/garbage-collector-controller/graph.
#include "controllers/garbagecollector/garbage_collector.h"

#include <memory>

#include "app/controller_descriptor.h"
#include "app/http_answer.h"
#include "app/url_unescape.h"

namespace kcm::app {
namespace {

// upstream debugHTTPHandler.ServeHTTP: "/graph" (with any method), every
// `uid` parameter selecting the part of the graph connected to it.
HttpAnswer serve_graph(const controllers::garbagecollector::GarbageCollector& gc,
                       std::string_view path, std::string_view raw_query) {
  if (path != "/graph") return http_error(404, "");
  HttpAnswer a;
  a.content_type = "text/vnd.graphviz";
  a.nosniff = true;
  a.body = gc.graph_dot(query_values(raw_query, "uid"));
  return a;
}

}  // namespace

ControllerDescriptor new_garbage_collector_controller_descriptor() {
  namespace gc = controllers::garbagecollector;
  return {
      .name = gc::kControllerName,
      .init = [](const ControllerContext& ctx) -> Result<std::unique_ptr<Controller>> {
        if (!ctx.options.enable_garbage_collector) return std::unique_ptr<Controller>();
        // upstream: ConfigOrDie("generic-garbage-collector") with twice the QPS,
        // for each deletion takes two calls (a GET, then the DELETE).
        auto clients = ctx.client_scaled("generic-garbage-collector", {.qps = 2});
        if (!clients.ok()) return fail(clients.error());
        auto controller = std::make_shared<gc::GarbageCollector>(
            *clients, &ctx.informers, ctx.recorder(gc::kControllerName, **clients),
            gc::GarbageCollectorOptions{.metrics = &ctx.metrics,
                                        .metadata_informers = ctx.metadata_informers});
        const int workers = ctx.options.concurrent_gc_syncs;
        return make_controller(
            [controller, workers](std::stop_token stop) { controller->run(workers, stop); },
            std::nullopt,
            [controller](std::string_view path, std::string_view raw_query) {
              return serve_graph(*controller, path, raw_query);
            });
      },
  };
}

}  // namespace kcm::app
