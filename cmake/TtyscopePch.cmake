# Precompiled headers. Most of a translation unit's compile time here is spent parsing Qt
# and QCustomPlot headers, not our code: a widgets file preprocesses to about 265,000
# lines, of which its own are a few hundred (docs/testing.md, "CI time"). Each group of
# targets parses them once, into a precompiled header that the others of the group reuse
# (REUSE_FROM needs the same compiler flags, which the targets of one group share; macros
# a target adds on the command line, such as TTYSCOPE_SAMPLES, are not used by these
# headers). On by default with clang only: clang loads what a file uses from its
# precompiled header (timelineinteraction.cpp 13.6 -> 5.2 s, sourcestats.cpp 11.7 -> 7.8 s,
# bytesearch.cpp 0.9 -> 1.1 s), while GCC reads all of it, 150-390 MB, for every file
# (bytesearch.cpp 1.4 -> 4.5 s, reportcommand.cpp 12.2 -> 17.8 s; only the widgets files
# gain). -DTTYSCOPE_PCH=OFF builds without them, e.g. to check that every file includes
# what it uses.
if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    set(pch_default ON)
else()
    set(pch_default OFF)
endif()
option(TTYSCOPE_PCH "Precompile the Qt, QCustomPlot and standard headers" ${pch_default})

# What nearly every file of capture/ and model/ includes.
set(TTYSCOPE_PCH_CORE
    <algorithm> <array> <atomic> <cmath> <cstdint> <cstring> <functional> <limits> <memory>
    <mutex> <optional> <string> <string_view> <thread> <utility> <vector>
    <QByteArray> <QDateTime> <QFile> <QHash> <QJsonArray> <QJsonDocument> <QJsonObject>
    <QObject> <QRegularExpression> <QString> <QStringList> <QVector>)
# QCustomPlot includes the whole of QtWidgets, QtGui and QtPrintSupport.
set(TTYSCOPE_PCH_WIDGETS ${TTYSCOPE_PCH_CORE} <qcustomplot.h>)

# ttyscope_pch(<target> <header list variable>): <target> owns a precompiled header.
function(ttyscope_pch target list)
    if(TTYSCOPE_PCH)
        target_precompile_headers(${target} PRIVATE ${${list}})
    endif()
endfunction()

# ttyscope_pch_reuse(<owner> <target>...): the targets use <owner>'s precompiled header.
function(ttyscope_pch_reuse owner)
    if(TTYSCOPE_PCH)
        foreach(t ${ARGN})
            if(NOT t STREQUAL owner)
                target_precompile_headers(${t} REUSE_FROM ${owner})
            endif()
        endforeach()
    endif()
endfunction()
