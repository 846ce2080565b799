#include "workqueue/delaying_queue.h"

namespace kcm::workqueue {

template class DelayingQueue<std::string>;

}  // namespace kcm::workqueue
