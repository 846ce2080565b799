// What every kcm parser of JSON text shares with api::parse_json, so that
// they refuse the same texts with the same messages.
#pragma once

#include <boost/json/parse_options.hpp>
#include <boost/system/error_code.hpp>
#include <cstddef>
#include <string>

namespace kcm::api {

// parse_json's settings: standard JSON, nested at most 512 deep.
boost::json::parse_options json_parse_options();

// parse_json's message for a parser error after `consumed` bytes.
std::string json_parse_error(std::size_t consumed, const boost::system::error_code& ec);

}  // namespace kcm::api
