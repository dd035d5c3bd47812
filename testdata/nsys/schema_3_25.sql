-- A hand-made Nsight Systems export in schema 3.25 (nsys 2026.2): the tables profana reads,
-- CREATE statements as nsys writes them (comments dropped). Two processes of one job, as
-- `torchrun` under `nsys profile --pytorch=autograd-nvtx` records them; times in ns.
-- GlobalIds: pid in bits 24..47, tid in bits 0..23 (and nsys's host id 1 in bit 48):
--   process A pid 100, thread 100: globalPid 281476654432256, globalTid 281476654432356
--   process B pid 200, thread 201: globalPid 281478332153856, globalTid 281478332154057
-- Process A (GPU 0):
--   "Step 1" (domain 0, no PyTorch suffix)            0 .. 10000  a user annotation
--   "aten::linear, seq = 3, op_id = 10, sizes = [[8, 16], [32, 16], [32]]"
--                                                    1000 ..  9000  op aten::linear, seq 3, shapes
--   "aten::addmm, seq = 3, op_id = 11"               2000 ..  8000  op aten::addmm
--   cudaLaunchKernel_v7000   3000 .. 3500  correlation 5 -> kernel gemm_a 4000 .. 6000, stream 7
--   cudaMemcpyAsync_v3020    6200 .. 6300  correlation 7 -> Memcpy HtoD (Pinned -> Device)
--                                                              6500 .. 7000, stream 7
--   cudaDeviceSynchronize_v3020 9050 .. 9300 correlation 9 -> Context Sync 9100 .. 9200, stream
--                                                              4294967295 (none: -1)
--   "ncclAllReduce" (NCCL's domain 1, a registered string) 9500 .. 9900  a user annotation
--   cuLaunchKernelEx         9600 .. 9700  correlation 6 -> ncclDevKernel_AllReduce
--                                                              9800 .. 9990, stream 20
--   a mark (eventType 34) at 500 and the NCCL domain's creation (75): no ranges
-- Process B (GPU 1):
--   "aten::mm, op_id = 10"                           1500 ..  5000  op aten::mm (no sequence)
--   cudaLaunchKernel_v7000   2000 .. 2400  correlation 5 (the same number as A's) -> kernel
--                                                              gemm_b 3000 .. 4000, stream 7
--   cudaMemsetAsync_v3020    4100 .. 4200  correlation 8 -> Memset (Device) 4500 .. 4600, stream 7
-- So: addmm gets gemm_a (2.000 us) and the copy (0.500 us); aten::mm gets gemm_b (1.000 us) and
-- the memset (0.100 us), never A's kernel, though both launches have correlation id 5; the
-- NCCL kernel (0.190 us) goes to the NCCL range around its launch.
CREATE TABLE StringIds ( id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE NVTX_EVENTS ( start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL, rangeId INTEGER, category INTEGER, color INTEGER, text TEXT, globalTid INTEGER, endGlobalTid INTEGER, textId INTEGER, domainId INTEGER, uint64Value INTEGER, int64Value INTEGER, doubleValue REAL, uint32Value INTEGER, int32Value INTEGER, floatValue REAL, jsonTextId INTEGER, jsonText TEXT, binaryData TEXT);
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME ( start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER NOT NULL, globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL, returnValue INTEGER NOT NULL, callchainId INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL ( start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, greenContextId INTEGER, streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER, demangledName INTEGER NOT NULL, shortName INTEGER NOT NULL, mangledName INTEGER, launchType INTEGER, cacheConfig INTEGER, registersPerThread INTEGER NOT NULL, gridX INTEGER NOT NULL, gridY INTEGER NOT NULL, gridZ INTEGER NOT NULL, blockX INTEGER NOT NULL, blockY INTEGER NOT NULL, blockZ INTEGER NOT NULL, staticSharedMemory INTEGER NOT NULL, dynamicSharedMemory INTEGER NOT NULL, localMemoryPerThread INTEGER NOT NULL, localMemoryTotal INTEGER NOT NULL, gridId INTEGER NOT NULL, sharedMemoryExecuted INTEGER, graphNodeId INTEGER, sharedMemoryLimitConfig INTEGER, qmdBulkReleaseDone INTEGER, qmdPreexitDone INTEGER, qmdLastCtaDone INTEGER, graphId INTEGER, clusterX INTEGER, clusterY INTEGER, clusterZ INTEGER, clusterSchedulingPolicy INTEGER, maxPotentialClusterSize INTEGER, maxActiveClusters INTEGER, sharedMemoryRequestedPercentage INTEGER, tensorSizeMinusOneElements TEXT NOT NULL);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY ( start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, greenContextId INTEGER, streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER, bytes INTEGER NOT NULL, copyKind INTEGER NOT NULL, deprecatedSrcId INTEGER, srcKind INTEGER, dstKind INTEGER, srcDeviceId INTEGER, srcContextId INTEGER, dstDeviceId INTEGER, dstContextId INTEGER, migrationCause INTEGER, graphNodeId INTEGER, virtualAddress INTEGER, copyCount INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET ( start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, greenContextId INTEGER, streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER, value INTEGER NOT NULL, bytes INTEGER NOT NULL, graphNodeId INTEGER, memKind INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION ( start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, greenContextId INTEGER, streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER, deprecatedSyncType INTEGER, syncType INTEGER NOT NULL, eventId INTEGER NOT NULL, eventSyncId INTEGER);
CREATE TABLE ThreadNames ( nameId INTEGER NOT NULL, priority INTEGER, globalTid INTEGER);
CREATE TABLE PROCESSES ( globalPid INTEGER, pid INTEGER, name TEXT);
CREATE TABLE META_DATA_EXPORT ( name TEXT NOT NULL, value TEXT);
INSERT INTO StringIds VALUES (1, 'cudaLaunchKernel_v7000'), (2, 'cudaMemcpyAsync_v3020'),
  (3, 'cudaMemsetAsync_v3020'), (4, 'cuLaunchKernelEx'), (5, 'cudaDeviceSynchronize_v3020'),
  (6, 'gemm_a'), (7, 'gemm_b'), (8, 'ncclDevKernel_AllReduce'), (9, 'ncclAllReduce'), (10, 'NCCL'),
  (11, 'python3'), (12, 'pt_main_thread');
INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, textId, domainId) VALUES
  (0, 10000, 59, 'Step 1', 281476654432356, NULL, 0),
  (1000, 9000, 59, 'aten::linear, seq = 3, op_id = 10, sizes = [[8, 16], [32, 16], [32]]', 281476654432356, NULL, 0),
  (2000, 8000, 59, 'aten::addmm, seq = 3, op_id = 11', 281476654432356, NULL, 0),
  (1500, 5000, 59, 'aten::mm, op_id = 10', 281478332154057, NULL, 0),
  (9500, 9900, 59, NULL, 281476654432356, 9, 1),
  (500, NULL, 34, 'a mark', 281476654432356, NULL, 0),
  (100, NULL, 75, 'NCCL', 281476654432356, NULL, 1);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME (start, end, eventClass, globalTid, correlationId, nameId, returnValue) VALUES
  (3000, 3500, 1, 281476654432356, 5, 1, 0),
  (6200, 6300, 1, 281476654432356, 7, 2, 0),
  (9050, 9300, 1, 281476654432356, 9, 5, 0),
  (9600, 9700, 2, 281476654432356, 6, 4, 0),
  (2000, 2400, 1, 281478332154057, 5, 1, 0),
  (4100, 4200, 1, 281478332154057, 8, 3, 0);
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, streamId, correlationId, globalPid, demangledName, shortName, registersPerThread, gridX, gridY, gridZ, blockX, blockY, blockZ, staticSharedMemory, dynamicSharedMemory, localMemoryPerThread, localMemoryTotal, gridId, tensorSizeMinusOneElements) VALUES
  (4000, 6000, 0, 1, 7, 5, 281476654432256, 6, 6, 32, 1, 1, 1, 128, 1, 1, 0, 0, 0, 0, 1, '[]'),
  (9800, 9990, 0, 1, 20, 6, 281476654432256, 8, 8, 32, 1, 1, 1, 128, 1, 1, 0, 0, 0, 0, 2, '[]'),
  (3000, 4000, 1, 2, 7, 5, 281478332153856, 7, 7, 32, 1, 1, 1, 128, 1, 1, 0, 0, 0, 0, 1, '[]');
INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY (start, end, deviceId, contextId, streamId, correlationId, globalPid, bytes, copyKind, srcKind, dstKind) VALUES
  (6500, 7000, 0, 1, 7, 7, 281476654432256, 4096, 1, 1, 2);
INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET (start, end, deviceId, contextId, streamId, correlationId, globalPid, value, bytes, memKind) VALUES
  (4500, 4600, 1, 2, 7, 8, 281478332153856, 0, 4096, 2);
INSERT INTO CUPTI_ACTIVITY_KIND_SYNCHRONIZATION (start, end, deviceId, contextId, streamId, correlationId, globalPid, syncType, eventId) VALUES
  (9100, 9200, 0, 1, 4294967295, 9, 281476654432256, 4, 4294967295);
INSERT INTO ThreadNames (nameId, priority, globalTid) VALUES (12, 20, 281476654432356);
INSERT INTO PROCESSES (globalPid, pid, name) VALUES (281476654432256, 100, 'python3'), (281478332153856, 200, 'python3');
INSERT INTO META_DATA_EXPORT VALUES ('EXPORT_SCHEMA_VERSION', '3.25.0'), ('EXPORT_PRODUCT_VERSION', '2026.2.1.210');
