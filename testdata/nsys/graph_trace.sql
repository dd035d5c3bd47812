-- A hand-made Nsight Systems export of `nsys profile --cuda-graph-trace=graph`: a CUDA graph's
-- executions are CUPTI_ACTIVITY_KIND_GRAPH_TRACE rows (columns as nsys 2024-2026 write them),
-- not kernels; CUDA_GRAPH_EVENTS holds host-side graph construction calls, which profana does
-- not read. One process, pid 100 (globalPid 281476654432256, thread 100 globalTid
-- 281476654432356), times in ns:
--   "aten::_cuda_graph_replay" (PyTorch NVTX, op_id 4)   1000 .. 9000  an op
--     cudaGraphLaunch_v10000  2000 .. 2600  correlation 21 -> graph 3 on device 0 stream 7,
--                                                              3000 .. 7000 (4.000 us)
--   cudaGraphLaunch_v10000  9500 .. 9800  correlation 22 -> graph 3, 10000 .. 13000 (3.000 us),
--                                                              outside any op
-- So the op's device time is the first execution (4.000 us); `kernels` lists "CUDA graph 3"
-- twice (7.000 us).
CREATE TABLE StringIds ( id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE NVTX_EVENTS ( start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL, rangeId INTEGER, category INTEGER, color INTEGER, text TEXT, globalTid INTEGER, endGlobalTid INTEGER, textId INTEGER, domainId INTEGER, uint64Value INTEGER, int64Value INTEGER, doubleValue REAL, uint32Value INTEGER, int32Value INTEGER, floatValue REAL, jsonTextId INTEGER, jsonText TEXT, binaryData TEXT);
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME ( start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER NOT NULL, globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL, returnValue INTEGER NOT NULL, callchainId INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_GRAPH_TRACE ( start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, greenContextId INTEGER, streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER, graphId INTEGER NOT NULL, graphExecId INTEGER NOT NULL);
CREATE TABLE CUDA_GRAPH_EVENTS ( start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER NOT NULL, globalTid INTEGER, nameId INTEGER NOT NULL, graphId INTEGER, originalGraphId INTEGER, graphExecId INTEGER);
CREATE TABLE PROCESSES ( globalPid INTEGER, pid INTEGER, name TEXT);
INSERT INTO StringIds VALUES (1, 'cudaGraphLaunch_v10000'), (2, 'cudaGraphInstantiate_v12000'),
  (3, 'python3');
INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, textId, domainId) VALUES
  (1000, 9000, 59, 'aten::_cuda_graph_replay, op_id = 4', 281476654432356, NULL, 0);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME (start, end, eventClass, globalTid, correlationId, nameId, returnValue) VALUES
  (2000, 2600, 1, 281476654432356, 21, 1, 0),
  (9500, 9800, 1, 281476654432356, 22, 1, 0);
INSERT INTO CUPTI_ACTIVITY_KIND_GRAPH_TRACE (start, end, deviceId, contextId, streamId, correlationId, globalPid, graphId, graphExecId) VALUES
  (3000, 7000, 0, 1, 7, 21, 281476654432256, 3, 5),
  (10000, 13000, 0, 1, 7, 22, 281476654432256, 3, 5);
INSERT INTO CUDA_GRAPH_EVENTS (start, end, eventClass, globalTid, nameId, graphId, graphExecId) VALUES
  (100, 900, 1, 281476654432356, 2, 3, 5);
INSERT INTO PROCESSES (globalPid, pid, name) VALUES (281476654432256, 100, 'python3');
