// Message templates (issue 14, "who floods the console"): a console message with its
// variable parts masked, so that the lines one printk call site prints fall together:
//   "noise: worker 3 seq 1234 jiffies 4295" -> "noise: worker # seq # jiffies #"
// Masked: decimal and hex numbers (0x1f, ffffffff81234567), the numbers of device names
// and ids (sda1 -> sda#, 1-1.2 -> #, 0000:00:1f.6 -> #), sizes (4096K -> #K), offsets
// (+0x1f/0x80 -> +#/#), and quoted strings ("foo" -> "#", 'bar' -> '#'); runs of blanks become one
// space and control bytes are dropped. One pass over the bytes, no regex, no allocation.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace tty {

// Template bytes kept: two lines that differ only after this many bytes of template are
// one source (a console line of 64 KiB costs no more to template than a short one).
constexpr std::size_t kTemplateMax = 160;
// The prefix ("usb 1-1: ...") is looked for in the first this many bytes of a message.
constexpr std::size_t kPrefixMax = 64;

// Writes the template of `message` to out (room for kTemplateMax bytes) and returns its
// length. Stops reading once the template is full.
std::size_t maskMessage(std::string_view message, char *out);
std::string messageTemplate(std::string_view message);

// True only if a and b have the same template, found without writing it: their bytes are
// the same but for whole decimal numbers (a run of digits with no letter or digit either
// side), which every template masks to "#". False says nothing: lines that differ anywhere
// else ("eth0"/"eth1", a quoted string) are left to maskMessage. A flood repeats one
// printk line with new numbers, and this compare costs less than masking the line.
bool sameTemplate(std::string_view a, std::string_view b);

// The subsystem or driver part of a message: the text before its first ": " ("usb 1-1",
// "ata1.00", "EXT4-fs (sda1)", "noise"), empty when there is none in the first kPrefixMax
// bytes or the message starts with a blank.
std::string_view messagePrefix(std::string_view message);

// A line of a multi-line report's body: a stack frame or other indented line, "Call
// Trace:", register dumps, "task:" lines of a sysrq-t dump, "CPU: 1 PID: ...", "Modules
// linked in:", "---[ end trace". Such a line counts as the source of the report it is part
// of (sourceindex.h), not as a source of its own.
bool isReportBody(std::string_view message);

} // namespace tty
