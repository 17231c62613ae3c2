"""What events say: each event's one-line description and audit lines, as data (:class:`Msg`).

One module per system (``tablelog/texts/<system>.py``, named by its declaration's ``texts``)
registers a describer per event class (:func:`describes`) and, where an event explains more
than its rule IDs and breakdown, an explainer (:func:`explains`); :mod:`tablelog.texts.core`
holds the registry and the core events' texts. The faces render the sentences
(:mod:`tablelog.lang`); nothing here builds English.
"""
