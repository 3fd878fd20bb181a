#include "theme.h"

#include <QApplication>
#include <QPalette>
#include <QStyle>
#include <QStyleFactory>

namespace tty {

bool applyTheme(const QString &name)
{
    static const QPalette systemPalette = QApplication::palette();
    static const QString systemStyle = QApplication::style()->name();
    if (name == QLatin1String("system") || name.isEmpty()) {
        QApplication::setStyle(QStyleFactory::create(systemStyle));
        QApplication::setPalette(systemPalette);
        return true;
    }
    if (name != QLatin1String("light") && name != QLatin1String("dark")) {
        return false;
    }
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    if (name == QLatin1String("light")) {
        QApplication::setPalette(QApplication::style()->standardPalette());
        return true;
    }
    QPalette p;
    const QColor window(0x2b, 0x2e, 0x33), base(0x1e, 0x20, 0x24), text(0xe6, 0xe6, 0xe6);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(0x26, 0x29, 0x2e));
    p.setColor(QPalette::ToolTipBase, base);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, Qt::red);
    p.setColor(QPalette::Link, QColor(0x56, 0xb4, 0xe9));
    p.setColor(QPalette::Highlight, QColor(0x3d, 0x6f, 0xa8));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::PlaceholderText, QColor(0x90, 0x90, 0x90));
    p.setColor(QPalette::Disabled, QPalette::Text, QColor(0x80, 0x80, 0x80));
    p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(0x80, 0x80, 0x80));
    QApplication::setPalette(p);
    return true;
}

} // namespace tty
