#include "controllers/deployment/events.h"

namespace kcm::controllers::deployment {

std::string scaling_replica_set_message(std::string_view operation, std::string_view rs_name,
                                        std::int32_t new_replicas, std::int32_t old_replicas) {
  return "Scaled " + std::string(operation) + " replica set " + std::string(rs_name) + " from " +
         std::to_string(old_replicas) + " to " + std::to_string(new_replicas);
}

std::string created_replica_set_scaled_message(std::string_view rs_name, std::int32_t replicas) {
  return "Scaled up replica set " + std::string(rs_name) + " from 0 to " + std::to_string(replicas);
}

std::string failed_create_replica_set_message(std::string_view rs_name, std::string_view error) {
  return "Failed to create new replica set " + quoted(rs_name) + ": " + std::string(error);
}

std::string rolled_back_message(std::string_view deployment_name, std::int64_t revision) {
  return "Rolled back deployment " + quoted(deployment_name) + " to revision " +
         std::to_string(revision);
}

std::string rollback_template_unchanged_message(std::string_view deployment_name) {
  return "The rollback revision contains the same template as current deployment " +
         quoted(deployment_name);
}

}  // namespace kcm::controllers::deployment
