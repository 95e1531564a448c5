/* XML layer: being written. */
#include "anvil/xml.h"

typedef int s_xml_write_placeholder;
