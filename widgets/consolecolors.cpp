#include "consolecolors.h"

#include <algorithm>
#include <cmath>

namespace tty {

namespace {
constexpr int kRgbFlag = 1 << 24; // above every 24-bit colour and every index

double luminance(const QColor &c)
{
    auto channel = [](double v) {
        return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
}
} // namespace

QColor xtermColor(ConsoleColor c)
{
    if (c.kind == ConsoleColor::Rgb) {
        return QColor::fromRgb(QRgb(c.value));
    }
    if (c.kind != ConsoleColor::Indexed) {
        return {};
    }
    static const QRgb sixteen[16] = {0x000000, 0xcd0000, 0x00cd00, 0xcdcd00, 0x0000ee, 0xcd00cd,
                                     0x00cdcd, 0xe5e5e5, 0x7f7f7f, 0xff0000, 0x00ff00, 0xffff00,
                                     0x5c5cff, 0xff00ff, 0x00ffff, 0xffffff};
    const int i = int(c.value);
    if (i < 16) {
        return QColor::fromRgb(sixteen[i]);
    }
    if (i < 232) {
        // The 6×6×6 cube: levels 0, 95, 135, 175, 215, 255.
        auto level = [](int v) { return v == 0 ? 0 : 55 + 40 * v; };
        const int k = i - 16;
        return QColor(level(k / 36), level(k / 6 % 6), level(k % 6));
    }
    const int g = 8 + 10 * (i - 232); // the grey ramp
    return QColor(g, g, g);
}

double contrastRatio(const QColor &a, const QColor &b)
{
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QColor readableOn(const QColor &c, const QColor &background, double minContrast)
{
    if (contrastRatio(c, background) >= minContrast) {
        return c;
    }
    // Away from the background: darker on a light one, lighter on a dark one, in steps of
    // HSL lightness (hue and saturation kept, so red stays red). Black and white end it.
    const bool darken = luminance(background) > 0.18;
    float h = 0, s = 0, l = 0, a = 0;
    c.getHslF(&h, &s, &l, &a);
    h = std::max(h, 0.0f); // achromatic (-1): any hue with no saturation
    QColor out = c;
    for (int step = 0; step < 40 && contrastRatio(out, background) < minContrast; ++step) {
        l = std::clamp(l + (darken ? -0.025f : 0.025f), 0.0f, 1.0f);
        out = QColor::fromHslF(h, s, l, a);
    }
    return out;
}

int packColor(ConsoleColor c)
{
    switch (c.kind) {
    case ConsoleColor::Indexed:
        return int(c.value);
    case ConsoleColor::Rgb:
        return kRgbFlag | int(c.value);
    case ConsoleColor::Default:
        break;
    }
    return -1;
}

ConsoleColor unpackColor(int packed)
{
    if (packed < 0) {
        return {};
    }
    if (packed & kRgbFlag) {
        return {ConsoleColor::Rgb, std::uint32_t(packed & 0xffffff)};
    }
    return {ConsoleColor::Indexed, std::uint32_t(packed)};
}

} // namespace tty
